-- Issue 34: what a command, an autocomplete, the reminder round or a restart looks up does not
-- grow with finished games or past moves.

-- A member's open games (lobby, active) are found from their open seats, not from every seat
-- they ever had: a seat knows whether its game is open, kept so by the triggers below.
ALTER TABLE seats ADD COLUMN open BOOLEAN NOT NULL DEFAULT TRUE;
UPDATE seats s SET open = g.status IN ('lobby', 'active') FROM games g WHERE g.id = s.game_id;
CREATE INDEX seats_open ON seats (user_id, game_id) WHERE open;

CREATE FUNCTION seats_open_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.open := COALESCE(
        (SELECT g.status IN ('lobby', 'active') FROM games g WHERE g.id = NEW.game_id), TRUE);
    RETURN NEW;
END $$;
CREATE TRIGGER seats_open_insert BEFORE INSERT ON seats
    FOR EACH ROW EXECUTE FUNCTION seats_open_insert();

CREATE FUNCTION seats_open_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE seats SET open = NEW.status IN ('lobby', 'active') WHERE game_id = NEW.id;
    RETURN NULL;
END $$;
CREATE TRIGGER seats_open_status AFTER UPDATE OF status ON games
    FOR EACH ROW
    WHEN ((OLD.status IN ('lobby', 'active')) IS DISTINCT FROM (NEW.status IN ('lobby', 'active')))
    EXECUTE FUNCTION seats_open_status();

-- A game's pending reminders (cancelled with every move): not every reminder row of the game.
CREATE INDEX reminders_pending ON reminders (game_id, user_id) WHERE status = 'pending';

-- What each game's thread shows: its turn message as last published, so a restart edits only
-- the threads that are behind. A cache: a missing or old row only costs one edit.
CREATE TABLE thread_shows (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    message_id  BIGINT NOT NULL,                -- the Discord message (the latest 'turn' one)
    seq         INTEGER NOT NULL,               -- the decision it shows
    log_digest  TEXT,                           -- games.log_digest at that decision
    player      INTEGER,                        -- the engine seat deciding
    updated_at  TIMESTAMPTZ NOT NULL
);
