-- Per-guild and per-user settings. Missing rows mean "defaults".

CREATE TABLE guild_settings (
    guild_id        BIGINT PRIMARY KEY,
    reminder_hours  DOUBLE PRECISION NOT NULL DEFAULT 12 CHECK (reminder_hours > 0),
    ping_mode       TEXT NOT NULL DEFAULT 'dm' CHECK (ping_mode IN ('dm', 'channel')),
    updated_at      TIMESTAMPTZ NOT NULL
);

CREATE TABLE user_settings (
    user_id            BIGINT PRIMARY KEY,
    reminders_enabled  BOOLEAN NOT NULL DEFAULT TRUE,
    ping_mode          TEXT CHECK (ping_mode IN ('dm', 'channel')),
    reminder_hours     DOUBLE PRECISION CHECK (reminder_hours > 0),
    updated_at         TIMESTAMPTZ NOT NULL
);
