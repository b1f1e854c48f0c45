-- Makes waiting jobs whose time has come available (scheduled → available, retryable → available), at most
-- ?1 per call, and wakes their queues. Run by the leader only.
-- Ordered by "id + 0", not "id", for the reason job_rescue.sql gives (ADR 0027, second amendment): without column
-- statistics an ordered walk of the primary key can look cheaper than sorting what jobs_waiting holds.
-- The update finds the due rows through the primary key (id = ANY), not by a join: on its generic plan (ADR 0034),
-- with many jobs due, a join hashed the whole table (280,000 rows read to promote 1,000).
WITH due AS (
    SELECT id
    FROM weir.jobs
    WHERE state IN ('scheduled', 'retryable')
      AND run_at <= now()
    ORDER BY id + 0
    LIMIT ?1
    FOR UPDATE SKIP LOCKED
),
promoted AS (
    UPDATE weir.jobs AS j
    SET state = 'available'
    WHERE j.id = ANY (ARRAY(SELECT id FROM due))
    RETURNING j.queue
),
woken AS (
    SELECT pg_notify('weir_jobs', queue)
    FROM (SELECT DISTINCT queue FROM promoted) AS q
)
SELECT count(*), (SELECT count(*) FROM woken)
FROM promoted
