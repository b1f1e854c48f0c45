-- Admits a batch of jobs of one bounded queue, all or nothing, in the submitter's transaction (ADR 0011):
-- takes one free admission slot per job and inserts the jobs pointing the slots at them, or, when fewer than k
-- slots can be had, inserts nothing. Never waits: slots locked by other open transactions are skipped.
-- With ?10 true the jobs are independent submissions of one job each (a group commit's, ADR 0030): as many of them
-- as slots could be taken are admitted, the first in the arrays' order; the caller submits the rest one by one.
-- ?1-?6: the jobs column by column, as job_insert.sql takes them (array literals of one length: kinds, queues,
-- args, priorities, max attempts, run_at), every one of queue ?7; ?7: the queue; ?8: k, the number of jobs; ?9: the
-- slot to start at; ?10: each job on its own (true) or all or nothing (false).
-- {window}: how many slots to look at, more than k (the caller widens it when it ran out). Written into the text,
-- a power of two, not bound: with a bound limit PostgreSQL's generic plan reckons on thousands of slots, each with a
-- probe, so its default plan choice planned the statement afresh at every execution (ADR 0038).
-- Answers one row per inserted job (id, state, queue), or, when none was, one row (null, null, null, free, taken,
-- looked): free = free-looking slots in the window, taken = slots locked before giving up, looked = slots in the
-- window (less than {window} when it held every slot of the queue).
WITH input AS (
    SELECT *
    FROM unnest(CAST(?1 AS text[]), CAST(?2 AS text[]), CAST(?3 AS jsonb[]), CAST(?4 AS smallint[]),
                CAST(?5 AS integer[]), CAST(?6 AS timestamptz[]))
         WITH ORDINALITY AS j(kind, queue, args, priority, max_attempts, run_at, ord)
),
-- The window: {window} slots in slot order from slot ?9 on, wrapping round to the first. ?9 is the submitter's cursor,
-- which moves on by k at every admission, so concurrent submitters look at different slots instead of all fighting
-- for the same few, and find the slots taken longest ago just ahead. Both halves read the primary key in order; the
-- second runs only when the first falls short.
window_slots AS (
    (SELECT ctid AS tid, slot, job_id, assigned_at
     FROM weir.admission_slots
     WHERE queue = ?7
       AND slot >= ?9
     ORDER BY slot
     LIMIT {window})
    UNION ALL
    (SELECT ctid AS tid, slot, job_id, assigned_at
     FROM weir.admission_slots
     WHERE queue = ?7
       AND slot < ?9
     ORDER BY slot
     LIMIT {window})
    LIMIT {window}
),
-- Those that look free in this statement's snapshot: no job, a job that no longer exists, or a terminal one. Read,
-- not locked, and computed once however many readers follow. Each slot's job is looked up by its primary key, one
-- probe per slot of the window: joined to weir.jobs instead, the planner hashed the whole table whenever its
-- statistics said the table was small (a server without autovacuum), a cost that grew with the table.
candidate AS (
    SELECT o.tid, o.slot, o.job_id, o.assigned_at
    FROM window_slots AS o
    WHERE coalesce((SELECT j.state FROM weir.jobs AS j WHERE j.id = o.job_id), 'completed')
          IN ('completed', 'cancelled', 'discarded')
),
-- Lock only when at least k slots look free (each on its own: at least one): a refusal for want of room locks
-- nothing, so a refusal inside a long caller transaction holds no slot.
enough AS (
    SELECT count(*) = ?8 OR (?10 AND count(*) > 0) AS yes
    FROM (SELECT 1 FROM candidate LIMIT ?8) AS c
),
-- Locks k of them, skipping any another transaction holds. The lock re-checks only the slot row, against the
-- job_id and assigned_at the snapshot judged: a slot that another submitter took and committed since the snapshot has
-- a new job_id and drops out, and so does one an operator's retry gave back to its terminal job (same job_id, new
-- assigned_at: ADR 0021). (Re-checking the join instead would be wrong: the re-check keeps the old job row, so a
-- new job_id would meet no job and look free.) Each slot is locked by a lateral subquery of its own, so the slots are
-- taken in the window's order, the first free ones from ?9 on, whatever plan the join would otherwise get: the
-- submitter's cursor relies on it (ADR 0011, amendment "a cursor instead of a random start"). The slot is found again
-- by the row version the window read (its ctid), not by a second descent of the primary key: a version stays where it
-- is while a snapshot can see it. One that another transaction replaced or deleted since fails the ctid's re-check
-- and is passed over, as the re-check of job_id and assigned_at passes over one taken or given back meanwhile (a slot
-- rewritten unchanged, which nothing in Weir does, would wait for the next admission). The update below finds the
-- locked versions by their ctid in turn (ADR 0011, amendment "slots found by their row version").
taken AS (
    SELECT s.slot, s.tid
    FROM candidate AS c
    CROSS JOIN LATERAL (
        SELECT l.slot, l.ctid AS tid
        FROM weir.admission_slots AS l
        WHERE l.ctid = c.tid
          AND l.job_id IS NOT DISTINCT FROM c.job_id
          AND l.assigned_at = c.assigned_at
        FOR UPDATE SKIP LOCKED) AS s
    WHERE (SELECT yes FROM enough)
    LIMIT ?8
),
inserted AS (
    INSERT INTO weir.jobs (kind, queue, args, priority, max_attempts, run_at, state)
    SELECT kind, queue, coalesce(args, '{}'), priority, max_attempts, coalesce(run_at, now()),
           CASE WHEN run_at IS NULL OR run_at <= now() THEN 'available' ELSE 'scheduled' END
    FROM input
    WHERE (SELECT count(*) FROM taken) = ?8 OR ?10
    ORDER BY ord
    LIMIT (SELECT count(*) FROM taken)
    RETURNING id, state, queue
),
-- The slots in slot order meet the jobs in id order, pair by pair (unnest of two arrays zips them).
assigned AS (
    UPDATE weir.admission_slots AS s
    SET job_id      = pair.id,
        assigned_at = now()
    FROM unnest(ARRAY(SELECT tid FROM taken ORDER BY slot), ARRAY(SELECT id FROM inserted ORDER BY id))
         AS pair(tid, id)
    WHERE s.ctid = pair.tid
)
SELECT id, state, queue, NULL::bigint AS free, NULL::bigint AS taken, NULL::bigint AS looked
FROM inserted
UNION ALL
SELECT NULL, NULL, NULL, (SELECT count(*) FROM candidate), (SELECT count(*) FROM taken), (SELECT count(*) FROM window_slots)
WHERE NOT EXISTS (SELECT 1 FROM inserted)
