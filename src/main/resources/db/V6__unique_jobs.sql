-- Unique jobs: a job submitted as unique carries its key (a SHA-256 in hex) and the states in which it blocks
-- duplicates. The partial unique index enforces it: two jobs with one key can never both be in their states. The
-- states always include every unfinished one, so a job never moves into its states from outside them; it can
-- only leave them (finish), which frees the key.
ALTER TABLE weir.jobs ADD COLUMN unique_key text, ADD COLUMN unique_states text[];
CREATE UNIQUE INDEX jobs_unique ON weir.jobs (unique_key)
    WHERE unique_key IS NOT NULL AND state = ANY (unique_states);
