-- Issue 34: what a command, an autocomplete, the reminder round or a restart looks up does not
-- grow with finished games or past moves.

-- A member's open games (lobby, active) are found from their open seats, not from every seat
-- they ever had: a seat knows whether its game is open, kept so by the triggers below.
ALTER TABLE seats ADD COLUMN open INTEGER NOT NULL DEFAULT 1 CHECK (open IN (0, 1));
UPDATE seats SET open = (SELECT g.status IN ('lobby', 'active') FROM games g WHERE g.id = seats.game_id);
CREATE INDEX seats_open ON seats (user_id, game_id) WHERE open = 1;

CREATE TRIGGER seats_open_insert AFTER INSERT ON seats
BEGIN
    UPDATE seats SET open = (SELECT g.status IN ('lobby', 'active') FROM games g WHERE g.id = NEW.game_id)
    WHERE game_id = NEW.game_id AND join_order = NEW.join_order;
END;

CREATE TRIGGER seats_open_status AFTER UPDATE OF status ON games
WHEN (OLD.status IN ('lobby', 'active')) IS NOT (NEW.status IN ('lobby', 'active'))
BEGIN
    UPDATE seats SET open = (NEW.status IN ('lobby', 'active')) WHERE game_id = NEW.id;
END;

-- A game's pending reminders (cancelled with every move): not every reminder row of the game.
CREATE INDEX reminders_pending ON reminders (game_id, user_id) WHERE status = 'pending';

-- What each game's thread shows: its turn message as last published, so a restart edits only
-- the threads that are behind. A cache: a missing or old row only costs one edit.
CREATE TABLE thread_shows (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    message_id  INTEGER NOT NULL,               -- the Discord message (the latest 'turn' one)
    seq         INTEGER NOT NULL,               -- the decision it shows
    log_digest  TEXT,                           -- games.log_digest at that decision
    player      INTEGER,                        -- the engine seat deciding
    updated_at  TEXT NOT NULL
);
