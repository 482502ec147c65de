-- Issue 19: how many lobbies a member may keep open and how many games a server may hold
-- (NULL: the bot's defaults). Issue 23: the language of a server's games and of a member's
-- private answers and DMs (NULL: Discord's locale).

ALTER TABLE guild_settings ADD COLUMN max_open_lobbies INTEGER;
ALTER TABLE guild_settings ADD COLUMN max_games INTEGER;
ALTER TABLE guild_settings ADD COLUMN language TEXT;
ALTER TABLE user_settings ADD COLUMN language TEXT;
