-- Claims up to ?2 available jobs of queue ?1 for instance ?3, each attempt due to end within ?4 ms, taking only jobs
-- after (?5, ?6, ?7) in claim order: (priority, run_at in microseconds since the epoch, id). (0, 0, 0) comes before
-- every job. Starting the index scan there skips the dead entries that earlier claims left at the head of the queue's
-- part of jobs_available (ADR 0024); the row comparison is an index condition of that index.
-- The pick must be a CTE: as a FROM-subquery the planner may merge it into the UPDATE and ignore the LIMIT.
-- The outer UPDATE re-checks the state, and SKIP LOCKED lets concurrent dispatchers pass each other.
-- The tenth column is how long each job had been due (since its run_at) when this claim's transaction began, in ms,
-- on the database's clock: the first part of the pickup latency of the metrics.
-- A paused queue yields nothing, on every instance, from the moment the pause commits.
-- The commit need not wait for the disk: a claim lost in a crash leaves the job available (set_config is local
-- to the transaction, and saves the round trip of a separate SET LOCAL).
WITH relaxed AS (
    SELECT set_config('synchronous_commit', 'off', true)
),
picked AS (
    SELECT id
    FROM weir.jobs
    WHERE state = 'available'
      AND queue = ?1
      AND (priority, run_at, id) > (?5, timestamptz 'epoch' + ?6 * interval '1 microsecond', ?7)
      AND NOT EXISTS (SELECT 1 FROM weir.queues AS q WHERE q.name = ?1 AND q.paused)
    ORDER BY priority, run_at, id
    LIMIT ?2
    FOR UPDATE SKIP LOCKED
)
UPDATE weir.jobs AS j
SET state        = 'running',
    attempt      = j.attempt + 1,
    attempted_at = now(),
    run_lease    = j.run_lease + 1,
    owner        = ?3,
    deadline_at  = now() + ?4 * interval '1 millisecond'
FROM picked, relaxed
WHERE j.id = picked.id
  AND j.state = 'available'
RETURNING j.id, j.kind, j.queue, CAST(j.args AS text), j.attempt, j.max_attempts, j.run_lease, j.priority,
          CAST(j.progress -> 'checkpoint' AS text),
          CAST(greatest(0, extract(epoch FROM now() - j.run_at) * 1000) AS bigint),
          CAST(extract(epoch FROM j.run_at) * 1000000 AS bigint)
