-- Inserts a batch of jobs given as one JSON array, in the array's order.
-- No NOTIFY here: it would run inside the caller's transaction, and PostgreSQL refuses to PREPARE a transaction
-- that executed NOTIFY, so a two-phase JTA transaction would fail at commit. The submitter announces the new jobs
-- after the commit instead (job_announce.sql).
-- ?1: [{"kind", "queue", "args", "priority", "max_attempts", "run_at" (null: now)}, …]
WITH input AS (
    SELECT r.*, i.ord
    FROM jsonb_array_elements(CAST(?1 AS jsonb)) WITH ORDINALITY AS i(job, ord),
         jsonb_to_record(i.job) AS r(kind text, queue text, args jsonb, priority smallint,
                                     max_attempts integer, run_at timestamptz)
)
INSERT INTO weir.jobs (kind, queue, args, priority, max_attempts, run_at, state)
SELECT kind, queue, coalesce(args, '{}'), priority, max_attempts, coalesce(run_at, now()),
       CASE WHEN run_at IS NULL OR run_at <= now() THEN 'available' ELSE 'scheduled' END
FROM input
ORDER BY ord
RETURNING id, state, queue
