-- Retention: deletes at most ?3 jobs in the terminal state ?1 that reached it more than ?2 ms ago, oldest first,
-- and answers how many. Run by the leader only, in bounded batches, so that no statement holds many row locks or
-- runs long. finalized_at < … implies finalized_at IS NOT NULL, so the partial index jobs_finalized serves it.
WITH doomed AS (
    SELECT id
    FROM weir.jobs
    WHERE finalized_at < now() - ?2 * interval '1 millisecond'
      AND state = ?1
    ORDER BY finalized_at
    LIMIT ?3
    FOR UPDATE SKIP LOCKED
),
deleted AS (
    DELETE FROM weir.jobs AS j
    USING doomed
    WHERE j.id = doomed.id
    RETURNING j.id
)
SELECT count(*)
FROM deleted
