-- Messages the bot posted for each game, and the reminder schedule.

CREATE TABLE messages (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,                  -- e.g. 'lobby', 'board', 'prompt', 'final'
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    seq         INTEGER,
    created_at  TEXT NOT NULL
);
CREATE INDEX messages_game_kind ON messages (game_id, kind, id);

CREATE TABLE reminders (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    due_at      TEXT NOT NULL,
    seq         INTEGER NOT NULL,               -- the game's seq when scheduled
    attempt     INTEGER NOT NULL DEFAULT 1,     -- 1, 2, 3... for the same (game, user, seq)
    status      TEXT NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'sent', 'cancelled')),
    created_at  TEXT NOT NULL,
    sent_at     TEXT
);
CREATE INDEX reminders_due ON reminders (due_at) WHERE status = 'pending';
CREATE INDEX reminders_game ON reminders (game_id, user_id, seq);
