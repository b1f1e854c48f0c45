-- Stores jobs of bounded queue ?2 in admission slots leased to instance ?3 (ADR 0033), in the submitter's
-- transaction: the n-th job of ?1 takes the n-th slot of ?4. The slots are locked first, skipping any another
-- transaction holds (a submitter whose lock re-check followed a slot into its lease keeps its lock until it ends), and
-- the lock re-checks that the slot is still leased to ?3; so a slot is never given twice and the statement never
-- waits. Unless every slot was locked and is still leased to ?3 (the leader gave one back as stale, a shrinking bound
-- removed one, another transaction holds one), no job is stored and no slot changes.
-- Identities are drawn first, so that each job and its slot meet in one row.
-- The jobs and slots come as JSON, like admission_admit.sql's, not as arrays: with arrays PostgreSQL plans every
-- execution anew (a custom plan that knows their lengths looks cheaper than the generic one), which cost more than
-- the statement itself.
-- ?1 the jobs, as admission_admit.sql takes them (every one of queue ?2); ?2 the queue; ?3 the instance; ?4 the slots
-- (a JSON array of numbers, as many as jobs)
-- Answers one row per stored job (id, state, queue, NULL); when none was stored, one row per slot of ?4 still leased
-- to ?3 (NULL, NULL, NULL, slot), for the instance to keep.
WITH input AS (
    SELECT nextval('weir.jobs_id_seq') AS id, r.*, i.ord, CAST(i.slot AS integer) AS slot
    FROM ROWS FROM (jsonb_array_elements(CAST(?1 AS jsonb)), jsonb_array_elements_text(CAST(?4 AS jsonb)))
             WITH ORDINALITY AS i(job, slot, ord),
         jsonb_to_record(i.job) AS r(kind text, queue text, args jsonb, priority smallint,
                                     max_attempts integer, run_at timestamptz)
),
-- Each slot is found by its primary key, one probe per job, whatever the table's statistics say: joined instead, a
-- generic plan with stale statistics read every slot of the queue.
locked AS (
    SELECT (SELECT s.slot
            FROM weir.admission_slots AS s
            WHERE s.queue = ?2
              AND s.slot = input.slot
              AND s.leased_to = ?3
            FOR UPDATE OF s SKIP LOCKED) AS slot
    FROM input
),
every AS (
    SELECT count(slot) = count(*) AS yes
    FROM locked
),
assigned AS (
    UPDATE weir.admission_slots AS s
    SET job_id      = (SELECT input.id FROM input WHERE input.slot = s.slot),
        assigned_at = now(),
        leased_to   = NULL
    WHERE s.queue = ?2
      AND s.slot = ANY (ARRAY(SELECT slot FROM input))
      AND (SELECT yes FROM every)
    RETURNING s.slot
),
inserted AS (
    INSERT INTO weir.jobs (id, kind, queue, args, priority, max_attempts, run_at, state)
    OVERRIDING SYSTEM VALUE
    SELECT id, kind, queue, coalesce(args, '{}'), priority, max_attempts, coalesce(run_at, now()),
           CASE WHEN run_at IS NULL OR run_at <= now() THEN 'available' ELSE 'scheduled' END
    FROM input
    WHERE (SELECT yes FROM every)
    ORDER BY ord
    RETURNING id, state, queue
)
SELECT id, state, queue, NULL::integer AS kept
FROM inserted
UNION ALL
SELECT NULL, NULL, NULL, s.slot
FROM weir.admission_slots AS s
WHERE NOT (SELECT yes FROM every)
  AND s.queue = ?2
  AND s.slot = ANY (ARRAY(SELECT slot FROM input))
  AND s.leased_to = ?3
