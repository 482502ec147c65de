-- Issue 33: the flood limit counts the games a member created in a server in the last day,
-- whatever became of them.
CREATE INDEX games_creator ON games (guild_id, creator_id, created_at);

-- Issue 33: every move checks the whole live choice log is still the one verified (in the
-- move's own statement); this index holds what it reads, so the table is not visited.
CREATE INDEX choices_live_log ON choices (game_id, seq, choice_id) WHERE undone_at IS NULL;
