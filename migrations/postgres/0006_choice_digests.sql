-- Issue 19: the choice log carries a running digest (store/choicelog.py), so damage to it is
-- seen when a game is loaded. Rows written before this migration get theirs the first time the
-- game is verified by replay (NULL until then). games.log_digest is the digest of the last
-- live choice; games.to_move the engine seat of the pending decision (NULL until known).

ALTER TABLE choices ADD COLUMN digest TEXT;
ALTER TABLE games ADD COLUMN log_digest TEXT;
ALTER TABLE games ADD COLUMN to_move INTEGER;

-- Still append-only: besides undone_at, only a missing digest may be filled in, once.
CREATE OR REPLACE FUNCTION choices_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'choices are append-only';
    END IF;
    IF NEW.id IS DISTINCT FROM OLD.id OR NEW.game_id IS DISTINCT FROM OLD.game_id
       OR NEW.seq IS DISTINCT FROM OLD.seq OR NEW.seat IS DISTINCT FROM OLD.seat
       OR NEW.choice_id IS DISTINCT FROM OLD.choice_id
       OR NEW.applied_at IS DISTINCT FROM OLD.applied_at
       OR (OLD.undone_at IS NOT NULL AND NEW.undone_at IS DISTINCT FROM OLD.undone_at)
       OR (OLD.digest IS NOT NULL AND NEW.digest IS DISTINCT FROM OLD.digest) THEN
        RAISE EXCEPTION 'choices are append-only (only undone_at and a missing digest may be set, once)';
    END IF;
    RETURN NEW;
END
$$;
