-- Issue 29: the operator prunes finished games. An archived game keeps its record (setup,
-- seats, choices) and its final snapshot (the final scores); its other snapshots, messages,
-- reminders and votes are gone. NULL: not archived.

ALTER TABLE games ADD COLUMN archived_at TIMESTAMPTZ;
