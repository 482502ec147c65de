-- Issue 29: small facts the bot keeps about itself between starts, by name. The first one is
-- 'command_hash': the hash of the slash commands last synced to Discord, so that a start whose
-- commands did not change skips the sync.

CREATE TABLE bot_state (
    name        TEXT PRIMARY KEY,
    value       TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
