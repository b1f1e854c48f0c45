-- Inserts a batch of jobs given column by column, as array literals of the same length, in the arrays' order.
-- Arrays, not one JSON document: PostgreSQL takes them apart for less (ADR 0030).
-- No NOTIFY here: it would run inside the caller's transaction, and PostgreSQL refuses to PREPARE a transaction
-- that executed NOTIFY, so a two-phase JTA transaction would fail at commit. The submitter announces the new jobs
-- after the commit instead (job_announce.sql).
-- ?1 kinds, ?2 queues, ?3 args (JSON objects), ?4 priorities, ?5 max attempts, ?6 run_at (NULL: now)
INSERT INTO weir.jobs (kind, queue, args, priority, max_attempts, run_at, state)
SELECT j.kind, j.queue, coalesce(j.args, '{}'), j.priority, j.max_attempts, coalesce(j.run_at, now()),
       CASE WHEN j.run_at IS NULL OR j.run_at <= now() THEN 'available' ELSE 'scheduled' END
FROM unnest(CAST(?1 AS text[]), CAST(?2 AS text[]), CAST(?3 AS jsonb[]), CAST(?4 AS smallint[]),
            CAST(?5 AS integer[]), CAST(?6 AS timestamptz[]))
         WITH ORDINALITY AS j(kind, queue, args, priority, max_attempts, run_at, ord)
ORDER BY j.ord
RETURNING id, state, queue
