-- Makes waiting jobs whose time has come available (scheduled → available, retryable → available), at most
-- ?1 per call, and wakes their queues. Run by the leader only.
WITH due AS (
    SELECT id
    FROM weir.jobs
    WHERE state IN ('scheduled', 'retryable')
      AND run_at <= now()
    ORDER BY id
    LIMIT ?1
    FOR UPDATE SKIP LOCKED
),
promoted AS (
    UPDATE weir.jobs AS j
    SET state = 'available'
    FROM due
    WHERE j.id = due.id
    RETURNING j.queue
),
woken AS (
    SELECT pg_notify('weir_jobs', queue)
    FROM (SELECT DISTINCT queue FROM promoted) AS q
)
SELECT count(*), (SELECT count(*) FROM woken)
FROM promoted
