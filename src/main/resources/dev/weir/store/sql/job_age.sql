-- Priority aging of queue ?1: an available job of priority ?3 that has waited (since run_at) ?2 ms for every level
-- it has moved so far plus one moves up one level (toward 1), at most ?4 per call; answers how many moved. Run by
-- the leader only. The first run_at condition is implied by the second (a job has moved at least 0 levels); it is
-- there so the scan of jobs_available (queue, priority, run_at, id) stops where jobs are too young to move.
-- Jobs that moved are announced: they now come earlier in claim order, before where the dispatchers' claims have got
-- to (ADR 0024), and the announcement sends their next claims back to the head of the queue.
-- The update finds the due rows through the primary key alone (id = ANY), not by a join, whose generic plan (ADR
-- 0034) can hash or walk the whole table, and without a condition on the state, which would let a plan read them
-- through jobs_available: the lock in due checked the state on the newest version of each row and holds to the end
-- of the statement.
WITH due AS (
    SELECT id
    FROM weir.jobs
    WHERE state = 'available'
      AND queue = ?1
      AND priority = ?3
      AND run_at < now() - ?2 * interval '1 millisecond'
      AND run_at < now() - ?2 * interval '1 millisecond' * (coalesce(base_priority, priority) - priority + 1)
    ORDER BY run_at, id
    LIMIT ?4
    FOR UPDATE SKIP LOCKED
),
moved AS (
    UPDATE weir.jobs AS j
    SET base_priority = coalesce(j.base_priority, j.priority),
        priority      = j.priority - 1
    WHERE j.id = ANY (ARRAY(SELECT id FROM due))
    RETURNING j.id
)
SELECT count(*), (SELECT count(pg_notify('weir_jobs', ?1)) FROM (SELECT 1 FROM moved LIMIT 1) AS any_moved)
FROM moved
