-- Issue 33 / 34: damage in the middle of a game's choice log is caught at the game's next move,
-- at a constant cost per move. Nothing rewrites or deletes a choice row (choices_no_rewrite and
-- choices_no_delete refuse it); should one be changed anyway (those triggers dropped, the file
-- edited by hand), these triggers mark its game: the game's log digest becomes
-- 'changed at choice N' (store/choicelog.py CHANGED_MARK), which no move's check accepts and no
-- replay verifies, so the next move or load replays the game and sets it aside as broken.
-- Allowed, and unmarked: undo setting undone_at on the game's last live choice, and a missing
-- digest filled in (games from before migration 6).
CREATE TRIGGER choices_guard_rewrite
AFTER UPDATE OF game_id, seq, seat, choice_id, digest, undone_at ON choices
WHEN NEW.game_id IS NOT OLD.game_id OR NEW.seq IS NOT OLD.seq OR NEW.seat IS NOT OLD.seat
  OR NEW.choice_id IS NOT OLD.choice_id
  OR (OLD.digest IS NOT NULL AND NEW.digest IS NOT OLD.digest)
  OR (OLD.undone_at IS NOT NULL AND NEW.undone_at IS NOT OLD.undone_at)
  OR (OLD.undone_at IS NULL AND NEW.undone_at IS NOT NULL AND EXISTS (SELECT 1 FROM choices
      WHERE game_id = OLD.game_id AND seq > OLD.seq AND undone_at IS NULL))
BEGIN
    UPDATE games SET log_digest = 'changed at choice ' || OLD.seq
    WHERE id IN (OLD.game_id, NEW.game_id);
END;

CREATE TRIGGER choices_guard_delete AFTER DELETE ON choices
BEGIN
    UPDATE games SET log_digest = 'changed at choice ' || OLD.seq WHERE id = OLD.game_id;
END;
