-- Issue 33: how many games one member may set up in a server in a day (the flood limit),
-- a server setting beside the other limits of migration 9 (NULL: the bot's default).

ALTER TABLE guild_settings ADD COLUMN max_new_games INTEGER;
