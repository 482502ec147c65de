-- Issue 22: several bot processes may share one database. Reminders and AI turns are claimed
-- by one process for a while (a lease: owner + expiry); a claim that runs out can be taken
-- over, so the work of a process that died is not lost.

ALTER TABLE reminders ADD COLUMN claimed_by TEXT;
ALTER TABLE reminders ADD COLUMN claimed_until TIMESTAMPTZ;

CREATE TABLE ai_turns (
    game_id        BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seq            INTEGER NOT NULL,            -- the game's seq when claimed
    owner          TEXT NOT NULL,               -- the claiming process
    claimed_until  TIMESTAMPTZ NOT NULL
);
CREATE INDEX games_to_move ON games (status, to_move) WHERE status = 'active';
