-- Issue 33: the flood limit counts the games a member created in a server in the last day,
-- whatever became of them.
CREATE INDEX games_creator ON games (guild_id, creator_id, created_at);

-- Issue 33: the digest of who plays each seat (user id, AI flag and policy, name, turn order),
-- recorded at the start: a changed seat row is caught on the next read of the game. NULL for
-- games started before this migration until they are first verified.
ALTER TABLE games ADD COLUMN seats_digest TEXT;
