-- Operator retry of the jobs ?1 (a bigint array), locked by the caller: each that is discarded, cancelled, completed,
-- retryable or scheduled becomes available now, with at least one attempt left (max_attempts grows to attempt + 1
-- when they are used up), its error history and progress kept, any cancel request forgotten, and priority aging
-- started over. Wakes their queues on every instance when the transaction commits. Answers the ids it moved.
WITH retried AS (
    UPDATE weir.jobs AS j
    SET state               = 'available',
        run_at              = now(),
        finalized_at        = NULL,
        max_attempts        = greatest(j.max_attempts, j.attempt + 1),
        cancel_requested_at = NULL,
        priority            = coalesce(j.base_priority, j.priority),
        base_priority       = NULL,
        owner               = NULL,
        deadline_at         = NULL
    WHERE j.id = ANY (CAST(?1 AS bigint[]))
      AND j.state IN ('discarded', 'cancelled', 'completed', 'retryable', 'scheduled')
    RETURNING j.id, j.queue
),
woken AS (
    SELECT pg_notify('weir_jobs', queue)
    FROM (SELECT DISTINCT queue FROM retried) AS q
)
SELECT id, (SELECT count(*) FROM woken)
FROM retried
