-- Remember the status a game had before it was marked 'broken', so a repair can restore it.

ALTER TABLE games ADD COLUMN broken_from TEXT
    CHECK (broken_from IS NULL OR broken_from IN ('lobby', 'active', 'finished', 'cancelled'));
