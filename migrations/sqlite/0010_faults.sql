-- Issue 33: the flood limit counts the games a member created in a server in the last day,
-- whatever became of them.
CREATE INDEX games_creator ON games (guild_id, creator_id, created_at);
