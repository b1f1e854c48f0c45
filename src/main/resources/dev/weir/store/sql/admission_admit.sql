-- Admits a batch of jobs of one bounded queue, all or nothing, in the submitter's transaction (ADR 0011):
-- takes one free admission slot per job and inserts the jobs pointing the slots at them, or, when fewer than k
-- slots can be had, inserts nothing. Never waits: slots locked by other open transactions are skipped.
-- ?1: the jobs, as job_insert.sql takes them (every one of queue ?2); ?2: the queue; ?3: k, the number of jobs;
-- ?4: how many free-looking slots to consider at most (at least k; the caller widens it when it ran out).
-- Answers one row per inserted job (id, state, queue), or, when refused, one row (null, null, null, free, taken):
-- free = free-looking slots found (at most ?4), taken = slots locked before giving up.
WITH input AS (
    SELECT r.*, i.ord
    FROM jsonb_array_elements(CAST(?1 AS jsonb)) WITH ORDINALITY AS i(job, ord),
         jsonb_to_record(i.job) AS r(kind text, queue text, args jsonb, priority smallint,
                                     max_attempts integer, run_at timestamptz)
),
-- Slots that look free in this statement's snapshot, given out longest ago first. Read, not locked. Computed
-- once and only as far as its readers pull it; the LIMIT keeps the planner on the index and the primary key of
-- weir.jobs instead of a hash join over the whole table.
candidate AS (
    SELECT s.slot, s.job_id
    FROM weir.admission_slots AS s
    LEFT JOIN weir.jobs AS j ON j.id = s.job_id
    WHERE s.queue = ?2
      AND (j.id IS NULL OR j.state IN ('completed', 'cancelled', 'discarded'))
    ORDER BY s.assigned_at
    LIMIT ?4
),
-- Lock only when at least k slots look free: a refusal for want of room locks nothing, so a refusal inside a
-- long caller transaction holds no slot.
enough AS (
    SELECT count(*) = ?3 AS yes
    FROM (SELECT 1 FROM candidate LIMIT ?3) AS c
),
-- Locks k of them, skipping any another transaction holds. The lock re-checks only the slot row, against the
-- job_id the snapshot judged: a slot that another submitter took and committed since the snapshot has a new
-- job_id and drops out. (Re-checking the join instead would be wrong: the re-check keeps the old job row, so a
-- new job_id would meet no job and look free.)
taken AS (
    SELECT s.slot
    FROM candidate AS c
    JOIN weir.admission_slots AS s ON s.queue = ?2 AND s.slot = c.slot
    WHERE s.job_id IS NOT DISTINCT FROM c.job_id
      AND (SELECT yes FROM enough)
    LIMIT ?3
    FOR UPDATE OF s SKIP LOCKED
),
inserted AS (
    INSERT INTO weir.jobs (kind, queue, args, priority, max_attempts, run_at, state)
    SELECT kind, queue, coalesce(args, '{}'), priority, max_attempts, coalesce(run_at, now()),
           CASE WHEN run_at IS NULL OR run_at <= now() THEN 'available' ELSE 'scheduled' END
    FROM input
    WHERE (SELECT count(*) FROM taken) = ?3
    ORDER BY ord
    RETURNING id, state, queue
),
assigned AS (
    UPDATE weir.admission_slots AS s
    SET job_id      = pair.id,
        assigned_at = now()
    FROM (SELECT t.slot, i.id
          FROM (SELECT slot, row_number() OVER (ORDER BY slot) AS n FROM taken) AS t
          JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM inserted) AS i USING (n)) AS pair
    WHERE s.queue = ?2
      AND s.slot = pair.slot
)
SELECT id, state, queue, NULL::bigint AS free, NULL::bigint AS taken
FROM inserted
UNION ALL
SELECT NULL, NULL, NULL, (SELECT count(*) FROM candidate), (SELECT count(*) FROM taken)
WHERE NOT EXISTS (SELECT 1 FROM inserted)
