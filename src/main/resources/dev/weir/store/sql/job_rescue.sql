-- Rescues running attempts nobody will finish: their owner's heartbeat is older than ?1 ms (or the owner is
-- gone), or they are more than ?2 ms past their deadline (the owner should have stopped them itself).
-- Rescue spends the attempt: a job whose attempts are used up is discarded, any other is made available
-- again at once; a job an operator asked to cancel is cancelled (ADR 0021). The reason goes into the error history
-- (and the answer, with each job's queue, kind and attempt, for the lifecycle log and the metrics). At most ?3 per
-- call. Run by the leader only.
-- Ordered by "id + 0", not "id": with no column statistics (a new table, or autovacuum off) PostgreSQL guesses
-- that a state matches a fixed share of the table, and for so short a LIMIT it then walks the whole primary key
-- in order rather than sort the few rows the partial index holds (110 ms per call with 228,000 jobs waiting,
-- against 0.4 ms; ADR 0027, second amendment). An expression cannot be read in order from the primary key, so the
-- rows come from the partial index and are sorted.
WITH stuck AS (
    SELECT j.id,
           CASE WHEN i.id IS NULL OR i.heartbeat_at < now() - ?1 * interval '1 millisecond'
                THEN 'rescued: instance ' || coalesce(j.owner, '?') || ' stopped sending heartbeats'
                ELSE 'rescued: attempt ran past its deadline' END AS reason
    FROM weir.jobs AS j
    LEFT JOIN weir.instances AS i ON i.id = j.owner
    WHERE j.state = 'running'
      AND (i.id IS NULL
           OR i.heartbeat_at < now() - ?1 * interval '1 millisecond'
           OR j.deadline_at < now() - ?2 * interval '1 millisecond')
    ORDER BY j.id + 0
    LIMIT ?3
    FOR UPDATE OF j SKIP LOCKED
),
rescued AS (
    UPDATE weir.jobs AS j
    SET state        = CASE WHEN j.cancel_requested_at IS NOT NULL THEN 'cancelled'
                            WHEN j.attempt >= j.max_attempts THEN 'discarded' ELSE 'available' END,
        finalized_at = CASE WHEN j.cancel_requested_at IS NOT NULL OR j.attempt >= j.max_attempts THEN now() END,
        errors       = j.errors || jsonb_build_array(jsonb_build_object(
                           'attempt', j.attempt, 'at', now(), 'error', stuck.reason)),
        owner        = NULL,
        deadline_at  = NULL
    FROM stuck
    WHERE j.id = stuck.id
    RETURNING j.id, j.queue, j.state, j.kind, j.attempt, stuck.reason
),
woken AS (
    SELECT pg_notify('weir_jobs', queue)
    FROM (SELECT DISTINCT queue FROM rescued WHERE state = 'available') AS q
)
SELECT id, state, (SELECT count(*) FROM woken), queue, kind, attempt, reason
FROM rescued
