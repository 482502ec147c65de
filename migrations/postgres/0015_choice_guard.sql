-- Issue 33 / 34: damage in the middle of a game's choice log is caught at the game's next move,
-- at a constant cost per move. Nothing rewrites or deletes a choice row (choices_no_rewrite and
-- choices_no_delete refuse it); should one be changed anyway (those triggers dropped, rows
-- edited by hand), these triggers mark its game: the game's log digest becomes
-- 'changed at choice N' (store/choicelog.py CHANGED_MARK), which no move's check accepts and no
-- replay verifies, so the next move or load replays the game and sets it aside as broken.
-- Allowed, and unmarked: undo setting undone_at on the game's last live choice, and a missing
-- digest filled in (games from before migration 6).
CREATE FUNCTION choices_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        IF NEW.game_id IS NOT DISTINCT FROM OLD.game_id AND NEW.seq IS NOT DISTINCT FROM OLD.seq
           AND NEW.seat IS NOT DISTINCT FROM OLD.seat
           AND NEW.choice_id IS NOT DISTINCT FROM OLD.choice_id
           AND (OLD.digest IS NULL OR NEW.digest IS NOT DISTINCT FROM OLD.digest)
           AND (NEW.undone_at IS NOT DISTINCT FROM OLD.undone_at
                OR (OLD.undone_at IS NULL AND NOT EXISTS (SELECT 1 FROM choices
                    WHERE game_id = OLD.game_id AND seq > OLD.seq AND undone_at IS NULL))) THEN
            RETURN NULL;
        END IF;
        UPDATE games SET log_digest = 'changed at choice ' || OLD.seq
        WHERE id IN (OLD.game_id, NEW.game_id);
    ELSE
        UPDATE games SET log_digest = 'changed at choice ' || OLD.seq WHERE id = OLD.game_id;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER choices_guard_rewrite
    AFTER UPDATE OF game_id, seq, seat, choice_id, digest, undone_at ON choices
    FOR EACH ROW EXECUTE FUNCTION choices_guard();
CREATE TRIGGER choices_guard_delete AFTER DELETE ON choices
    FOR EACH ROW EXECUTE FUNCTION choices_guard();
