-- Votes for an AI stand-in to play an absent player's turn (issue 6): one row per voter and
-- decision; the stand-in plays once a majority of the other human players agree.

CREATE TABLE standin_votes (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL CHECK (seq >= 0),
    voter_id  INTEGER NOT NULL,
    voted_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq, voter_id)
);
