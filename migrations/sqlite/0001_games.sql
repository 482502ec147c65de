-- Games, seats, the append-only list of choices, and state snapshots.
-- Times are UTC TEXT 'YYYY-MM-DDTHH:MM:SS.ffffffZ' (sortable). Discord ids are INTEGER.

CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    thread_id     INTEGER,
    status        TEXT NOT NULL DEFAULT 'lobby'
                  CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'broken')),
    broken_reason TEXT,
    seed          INTEGER,
    options       TEXT NOT NULL DEFAULT '{}',   -- JSON object
    setup         TEXT,                         -- JSON of engine GameSetup, set at start
    creator_id    INTEGER NOT NULL,
    seq           INTEGER NOT NULL DEFAULT 0,   -- live choices applied = len(state.history)
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    started_at    TEXT,
    finished_at   TEXT
);
CREATE INDEX games_guild ON games (guild_id, status);
CREATE INDEX games_channel ON games (channel_id, status);
CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL;

CREATE TABLE seats (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    join_order  INTEGER NOT NULL,
    user_id     INTEGER,                        -- NULL for an AI seat
    is_ai       INTEGER NOT NULL DEFAULT 0 CHECK (is_ai IN (0, 1)),
    ai_policy   TEXT,
    name        TEXT NOT NULL,
    colour      TEXT,
    turn_index  INTEGER,                        -- engine seat index, drawn at start
    PRIMARY KEY (game_id, join_order),
    CHECK (is_ai = 1 OR user_id IS NOT NULL)
);
CREATE UNIQUE INDEX seats_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX seats_name ON seats (game_id, name);
CREATE UNIQUE INDEX seats_turn ON seats (game_id, turn_index) WHERE turn_index IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

-- Append-only: rows are never deleted or rewritten, except that undo sets undone_at.
CREATE TABLE choices (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE RESTRICT,
    seq         INTEGER NOT NULL,               -- index in state.history (0-based)
    seat        INTEGER NOT NULL,
    choice_id   TEXT NOT NULL,
    applied_at  TEXT NOT NULL,
    undone_at   TEXT
);
-- At most one live choice per position: the last line of defence against double applies.
CREATE UNIQUE INDEX choices_live ON choices (game_id, seq) WHERE undone_at IS NULL;
CREATE INDEX choices_game ON choices (game_id, id);

CREATE TRIGGER choices_no_delete BEFORE DELETE ON choices
BEGIN
    SELECT RAISE(ABORT, 'choices are append-only');
END;

CREATE TRIGGER choices_no_rewrite BEFORE UPDATE ON choices
WHEN NEW.game_id IS NOT OLD.game_id OR NEW.seq IS NOT OLD.seq OR NEW.seat IS NOT OLD.seat
  OR NEW.choice_id IS NOT OLD.choice_id OR NEW.applied_at IS NOT OLD.applied_at
  OR (OLD.undone_at IS NOT NULL)
BEGIN
    SELECT RAISE(ABORT, 'choices are append-only (only undone_at may be set, once)');
END;

-- State snapshots: the latest one (seq = games.seq) plus checkpoints every N moves.
-- A cache: the truth is setup + live choices; digest is state.digest().
CREATE TABLE snapshots (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    state       TEXT NOT NULL,                  -- state.to_json()
    digest      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
