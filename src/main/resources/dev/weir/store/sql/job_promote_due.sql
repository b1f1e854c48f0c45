-- Makes waiting jobs whose time has come available (scheduled → available, retryable → available), at most
-- ?1 per call, and wakes their queues. Run by the leader only.
-- Ordered by "id + 0", not "id": with no column statistics (a new table, or autovacuum off) PostgreSQL guesses
-- that a state matches a fixed share of the table, and for so short a LIMIT it then walks the whole primary key
-- in order rather than sort the few rows the partial index holds (110 ms per call with 228,000 jobs waiting,
-- against 0.4 ms; ADR 0027, second amendment). An expression cannot be read in order from the primary key, so the
-- rows come from the partial index and are sorted.
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
