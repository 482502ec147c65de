-- Issue 33: the flood limit counts the games a member created in a server in the last day,
-- whatever became of them.
CREATE INDEX games_creator ON games (guild_id, creator_id, created_at);

-- Issue 33: every move checks the whole live choice log is still the one verified (in the
-- move's own statement); this index holds what it reads, so the table is not visited.
CREATE INDEX choices_live_log ON choices (game_id, seq, choice_id) WHERE undone_at IS NULL;

-- Issue 33: the digest of who plays each seat (user id, AI flag and policy, name, turn order),
-- recorded at the start: a changed seat row is caught on the next read of the game. NULL for
-- games started before this migration until they are first verified.
ALTER TABLE games ADD COLUMN seats_digest TEXT;
