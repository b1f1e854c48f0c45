-- Inserts a batch of jobs given as one JSON array, in the array's order, and wakes the dispatchers of
-- every queue that got an available job (NOTIFY is delivered on commit, coalesced per transaction).
-- ?1: [{"kind", "queue", "args", "priority", "max_attempts", "run_at" (null: now)}, …]
WITH input AS (
    SELECT r.*, i.ord
    FROM jsonb_array_elements(CAST(?1 AS jsonb)) WITH ORDINALITY AS i(job, ord),
         jsonb_to_record(i.job) AS r(kind text, queue text, args jsonb, priority smallint,
                                     max_attempts integer, run_at timestamptz)
),
inserted AS (
    INSERT INTO weir.jobs (kind, queue, args, priority, max_attempts, run_at, state)
    SELECT kind, queue, coalesce(args, '{}'), priority, max_attempts, coalesce(run_at, now()),
           CASE WHEN run_at IS NULL OR run_at <= now() THEN 'available' ELSE 'scheduled' END
    FROM input
    ORDER BY ord
    RETURNING id, queue, state
),
woken AS (
    SELECT pg_notify('weir_jobs', queue)
    FROM (SELECT DISTINCT queue FROM inserted WHERE state = 'available') AS q
)
SELECT id, state, (SELECT count(*) FROM woken)
FROM inserted
ORDER BY id
