-- Issue 30: the bot remembers. What finished games leave behind, kept as aggregates that the
-- game end's own transaction updates (store/records.py) and `rebuild-records` recomputes from
-- the stored games (setup + choices), plus the stand-in turns, time away and privacy.

-- One row per seat of a finished game (AI seats too: history shows them).
CREATE TABLE results (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn_index     INTEGER NOT NULL,
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER,                     -- NULL for an AI seat
    name           TEXT NOT NULL,
    players        INTEGER NOT NULL,
    place          INTEGER NOT NULL,            -- 1 = first; tied players share a place
    won            INTEGER NOT NULL CHECK (won IN (0, 1)),   -- the rules' winner
    score          INTEGER NOT NULL,
    categories     TEXT NOT NULL,               -- JSON list: the eleven scorepad categories
    turns          INTEGER NOT NULL,
    late_turns     INTEGER NOT NULL,            -- turns the player was reminded about
    standin_turns  INTEGER NOT NULL,            -- turns an AI stand-in played
    waits          TEXT NOT NULL,               -- JSON list: seconds before each turn's first move
    rated          INTEGER NOT NULL CHECK (rated IN (0, 1)),
    finished_at    TEXT NOT NULL,
    PRIMARY KEY (game_id, turn_index)
) WITHOUT ROWID;
CREATE INDEX results_member ON results (guild_id, user_id, finished_at) WHERE user_id IS NOT NULL;
CREATE INDEX results_guild ON results (guild_id, finished_at);

-- Per member and server: the sums a profile and the leaderboard read, and the rating.
CREATE TABLE member_stats (
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    games          INTEGER NOT NULL DEFAULT 0,
    wins           INTEGER NOT NULL DEFAULT 0,
    expected_wins  REAL NOT NULL DEFAULT 0,     -- sum of 1/players
    score_sum      INTEGER NOT NULL DEFAULT 0,
    best_score     INTEGER,
    categories     TEXT NOT NULL DEFAULT '[]',  -- JSON list: sums of the eleven categories
    turns          INTEGER NOT NULL DEFAULT 0,
    late_turns     INTEGER NOT NULL DEFAULT 0,
    standin_turns  INTEGER NOT NULL DEFAULT 0,
    standin_games  INTEGER NOT NULL DEFAULT 0,  -- games where an AI stood in for them
    rated_games    INTEGER NOT NULL DEFAULT 0,
    mu             REAL,
    sigma          REAL,
    ordinal        REAL,                        -- mu - 3 sigma: the leaderboard's order
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
CREATE INDEX member_stats_board ON member_stats (guild_id, ordinal DESC) WHERE ordinal IS NOT NULL;

-- The decisions an AI stand-in played (/ada standin), by the choice's position.
CREATE TABLE standin_turns (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    at       TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- A member's time away (/ada away) and privacy (/ada privacy), in every server.
CREATE TABLE member_records (
    user_id     INTEGER PRIMARY KEY,
    hidden      INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
    away_until  TEXT,
    updated_at  TEXT NOT NULL
);

-- A server's longest allowed absence (/ada-admin away-limit); no row: the bot's default.
CREATE TABLE guild_records (
    guild_id       INTEGER PRIMARY KEY,
    max_away_days  INTEGER NOT NULL CHECK (max_away_days > 0),
    updated_at     TEXT NOT NULL
);
