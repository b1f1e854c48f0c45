-- An operator's retry makes terminal job ?1 of bounded queue ?2 outstanding again: it must hold an admission slot
-- again, in the retrying transaction, or be refused (ADR 0011, ADR 0021). Takes one slot for it, never waiting: the
-- slot that still points at the job if there is one (so the job does not end up holding two), else a free one from a
-- window of {window} slots starting at slot ?3, as admission_admit.sql looks for them (the window written into the
-- text, as there: ADR 0038). The slot gets a new assigned_at, so a submitter whose snapshot judged it free (its job
-- was terminal then) drops it on its re-check.
-- Answers one row: the slot taken (null: none) and how many slots the window held (less than {window}: every slot of
-- the queue was in view).
WITH own AS (
    SELECT slot, job_id, assigned_at, 0 AS pref
    FROM weir.admission_slots
    WHERE queue = ?2
      AND job_id = ?1
),
window_slots AS (
    (SELECT slot, job_id, assigned_at
     FROM weir.admission_slots
     WHERE queue = ?2
       AND slot >= ?3
     ORDER BY slot
     LIMIT {window})
    UNION ALL
    (SELECT slot, job_id, assigned_at
     FROM weir.admission_slots
     WHERE queue = ?2
       AND slot < ?3
     ORDER BY slot
     LIMIT {window})
    LIMIT {window}
),
candidate AS (
    SELECT slot, job_id, assigned_at, pref
    FROM own
    UNION ALL
    SELECT o.slot, o.job_id, o.assigned_at, 1
    FROM window_slots AS o
    -- By primary key, one probe per slot, as in admission_admit.sql: never a hash of the whole table.
    WHERE coalesce((SELECT j.state FROM weir.jobs AS j WHERE j.id = o.job_id), 'completed')
          IN ('completed', 'cancelled', 'discarded')
),
taken AS (
    SELECT s.slot
    FROM candidate AS c
    JOIN weir.admission_slots AS s ON s.queue = ?2 AND s.slot = c.slot
    WHERE s.job_id IS NOT DISTINCT FROM c.job_id
      AND s.assigned_at = c.assigned_at
    ORDER BY c.pref, c.slot
    LIMIT 1
    FOR UPDATE OF s SKIP LOCKED
),
assigned AS (
    UPDATE weir.admission_slots AS s
    SET job_id      = ?1,
        assigned_at = clock_timestamp()
    FROM taken
    WHERE s.queue = ?2
      AND s.slot = taken.slot
    RETURNING s.slot
)
SELECT (SELECT slot FROM assigned), (SELECT count(*) FROM window_slots)
