-- Leases free admission slots of bounded queue ?1 to instance ?2 (ADR 0033), in a statement that commits by itself:
-- the instance's submitters later give each to one job without looking for it (admission_use.sql). Takes at most ?3
-- slots, and never more than half of the slots that look free in its window, so that as the queue fills the leases
-- shrink and the last room is left to admission_admit.sql, which sees it exactly. The window is ?4 slots from slot
-- ?5 on, wrapping round, read and judged as admission_admit.sql does, and the lock skips any slot another transaction
-- holds and re-checks the slot row against what the snapshot judged.
-- The commit need not wait for the disk: a lease lost in a crash was only ever used by a submission whose own
-- durable commit comes later in the log, and so would have made it durable first.
-- Answers one row per slot leased (none: no room worth leasing).
WITH relaxed AS (
    SELECT set_config('synchronous_commit', 'off', true)
),
window_slots AS (
    (SELECT slot, job_id, assigned_at, leased_to
     FROM weir.admission_slots
     WHERE queue = ?1
       AND slot >= ?5
     ORDER BY slot
     LIMIT ?4)
    UNION ALL
    (SELECT slot, job_id, assigned_at, leased_to
     FROM weir.admission_slots
     WHERE queue = ?1
       AND slot < ?5
     ORDER BY slot
     LIMIT ?4)
    LIMIT ?4
),
candidate AS (
    SELECT o.slot, o.job_id, o.assigned_at
    FROM window_slots AS o
    WHERE o.leased_to IS NULL
      AND coalesce((SELECT j.state FROM weir.jobs AS j WHERE j.id = o.job_id), 'completed')
          IN ('completed', 'cancelled', 'discarded')
),
taken AS (
    SELECT s.slot
    FROM candidate AS c
    JOIN weir.admission_slots AS s ON s.queue = ?1 AND s.slot = c.slot
    WHERE s.job_id IS NOT DISTINCT FROM c.job_id
      AND s.assigned_at = c.assigned_at
      AND s.leased_to IS NULL
    LIMIT least(?3, (SELECT count(*) FROM candidate) / 2)
    FOR UPDATE OF s SKIP LOCKED
)
UPDATE weir.admission_slots AS s
SET leased_to = ?2,
    job_id    = NULL
FROM taken
WHERE s.queue = ?1
  AND s.slot = taken.slot
  AND (SELECT count(*) FROM relaxed) = 1
RETURNING s.slot
