-- Per-guild and per-user settings. Missing rows mean "defaults".

CREATE TABLE guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    reminder_hours  REAL NOT NULL DEFAULT 12 CHECK (reminder_hours > 0),
    ping_mode       TEXT NOT NULL DEFAULT 'dm' CHECK (ping_mode IN ('dm', 'channel')),
    updated_at      TEXT NOT NULL
);

CREATE TABLE user_settings (
    user_id            INTEGER PRIMARY KEY,
    reminders_enabled  INTEGER NOT NULL DEFAULT 1 CHECK (reminders_enabled IN (0, 1)),
    ping_mode          TEXT CHECK (ping_mode IN ('dm', 'channel')),
    reminder_hours     REAL CHECK (reminder_hours > 0),
    updated_at         TEXT NOT NULL
);
