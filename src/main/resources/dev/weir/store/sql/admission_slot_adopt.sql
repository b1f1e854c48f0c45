-- Gives free slots of queue ?1 to its outstanding jobs that hold none (submitted while the queue was unbounded),
-- oldest job first, as far as the free slots go; answers how many were adopted. The caller holds every slot of the
-- queue (admission_slot_lock.sql).
WITH orphan AS (
    SELECT o.id, row_number() OVER (ORDER BY o.id) AS n
    FROM (SELECT id FROM weir.jobs WHERE queue = ?1 AND state = 'available'
          UNION ALL
          SELECT id FROM weir.jobs WHERE state IN ('scheduled', 'retryable') AND queue = ?1
          UNION ALL
          SELECT id FROM weir.jobs WHERE state = 'running' AND queue = ?1
          -- A set difference, hashed or sorted: one slot scan per job would be quadratic (job_id has no index).
          EXCEPT ALL
          SELECT job_id FROM weir.admission_slots WHERE queue = ?1 AND job_id IS NOT NULL) AS o
),
free AS (
    SELECT s.slot, row_number() OVER (ORDER BY s.assigned_at, s.slot) AS n
    FROM weir.admission_slots AS s
    LEFT JOIN weir.jobs AS j ON j.id = s.job_id
    WHERE s.queue = ?1
      AND (j.id IS NULL OR j.state IN ('completed', 'cancelled', 'discarded'))
),
adopted AS (
    UPDATE weir.admission_slots AS s
    SET job_id      = orphan.id,
        assigned_at = now()
    FROM orphan
    JOIN free USING (n)
    WHERE s.queue = ?1
      AND s.slot = free.slot
    RETURNING s.slot
)
SELECT count(*)
FROM adopted
