-- Inserts a batch of jobs that differ in their arguments only (one kind, queue, priority, max attempts and run_at),
-- in the array's order: the usual batch, and cheaper for PostgreSQL than an array per column (ADR 0030).
-- No NOTIFY here, for the reason job_insert.sql gives.
-- ?1 kind, ?2 queue, ?3 priority, ?4 max attempts, ?5 run_at ('' for now), ?6 args (array literal of JSON objects)
WITH t AS (SELECT CAST(NULLIF(?5, '') AS timestamptz) AS run_at)
INSERT INTO weir.jobs (kind, queue, args, priority, max_attempts, run_at, state)
SELECT ?1, ?2, coalesce(j.args, '{}'), CAST(?3 AS smallint), CAST(?4 AS integer), coalesce(t.run_at, now()),
       CASE WHEN t.run_at IS NULL OR t.run_at <= now() THEN 'available' ELSE 'scheduled' END
FROM t, unnest(CAST(?6 AS jsonb[])) WITH ORDINALITY AS j(args, ord)
ORDER BY j.ord
RETURNING id, state, queue
