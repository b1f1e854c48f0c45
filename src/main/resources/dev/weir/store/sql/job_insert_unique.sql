-- Inserts one unique job, given as a one-element JSON array like job_insert.sql's, with key ?2 and blocking states
-- ?3 (a text array literal), unless a job with that key is in its states; answers the inserted job, or the existing
-- one with duplicate = true. ON CONFLICT waits for a concurrent insert of the same key to end and then does nothing
-- if it committed; that row may be newer than this statement's snapshot, so the answer can be empty, and the
-- caller then runs the statement again.
WITH input AS (
    SELECT r.*
    FROM jsonb_array_elements(CAST(?1 AS jsonb)) AS i(job),
         jsonb_to_record(i.job) AS r(kind text, queue text, args jsonb, priority smallint,
                                     max_attempts integer, run_at timestamptz)
),
inserted AS (
    INSERT INTO weir.jobs (kind, queue, args, priority, max_attempts, run_at, state, unique_key, unique_states)
    SELECT kind, queue, coalesce(args, '{}'), priority, max_attempts, coalesce(run_at, now()),
           CASE WHEN run_at IS NULL OR run_at <= now() THEN 'available' ELSE 'scheduled' END,
           ?2, CAST(?3 AS text[])
    FROM input
    ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND state = ANY (unique_states) DO NOTHING
    RETURNING id, state, queue
)
SELECT id, state, queue, false
FROM inserted
UNION ALL
SELECT id, state, queue, true
FROM weir.jobs
WHERE unique_key = ?2
  AND state = ANY (unique_states)
  AND NOT EXISTS (SELECT 1 FROM inserted)
