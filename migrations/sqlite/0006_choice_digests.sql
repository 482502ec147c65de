-- Issue 19: the choice log carries a running digest (store/choicelog.py), so damage to it is
-- seen when a game is loaded. Rows written before this migration get theirs the first time the
-- game is verified by replay (NULL until then). games.log_digest is the digest of the last
-- live choice; games.to_move the engine seat of the pending decision (NULL until known).

ALTER TABLE choices ADD COLUMN digest TEXT;
ALTER TABLE games ADD COLUMN log_digest TEXT;
ALTER TABLE games ADD COLUMN to_move INTEGER;

-- Still append-only: besides undone_at, only a missing digest may be filled in, once.
DROP TRIGGER choices_no_rewrite;
CREATE TRIGGER choices_no_rewrite BEFORE UPDATE ON choices
WHEN NEW.id IS NOT OLD.id OR NEW.game_id IS NOT OLD.game_id OR NEW.seq IS NOT OLD.seq
  OR NEW.seat IS NOT OLD.seat OR NEW.choice_id IS NOT OLD.choice_id
  OR NEW.applied_at IS NOT OLD.applied_at
  OR (OLD.undone_at IS NOT NULL AND NEW.undone_at IS NOT OLD.undone_at)
  OR (OLD.digest IS NOT NULL AND NEW.digest IS NOT OLD.digest)
BEGIN
    SELECT RAISE(ABORT, 'choices are append-only (only undone_at and a missing digest may be set, once)');
END;
