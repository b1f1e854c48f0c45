-- One turn of the engine in one statement: records a batch of attempt outcomes, and claims the next jobs of one queue
-- (ADR 0026). Either part may be empty: no outcomes (empty arrays, '{}') for a plain claim, no claims ('[]') for
-- outcomes alone.
-- As one statement it is one round trip, and outside a transaction it commits by itself: one more round trip saved.
--
-- Outcomes. Each names its attempt by (id, lease) and applies only while that attempt is still running: a late
-- outcome from a rescued or re-claimed attempt matches nothing. Rows are locked in id order so concurrent multi-row
-- writers cannot deadlock; they are locked before the claim takes any row (the first branch of the final UNION ALL is
-- read first), and the claim never waits (SKIP LOCKED), so the claim adds no lock-order hazard.
-- ?1 … ?6: one array literal per column, element i of each belonging to outcome i: ?1 the job ids (bigint), ?2 the
-- leases (bigint), ?3 the states (text), ?4 the delays in ms (bigint), ?5 the errors (text, NULL: none), ?6 whether to
-- give the attempt back (boolean). Arrays cost PostgreSQL less to take apart than a JSON document (ADR 0026,
-- amendment 3).
-- An attempt whose job an operator asked to cancel (cancel_requested_at) ends cancelled unless it completed, whatever
-- outcome it brought (ADR 0021); the reason and the attempt's own error go into the history.
--
-- Claims, for instance ?8, in as many queues as ?7 names (ADR 0026, amendment 2: a turn whose outcomes come from
-- several queues renews them all here):
-- ?7: [{"queue", "n" (at most this many jobs), "deadline_ms" (each attempt due to end within it), "priority",
--       "run_at_us", "id" (take only jobs after this key in claim order), "part", "parts" (take only jobs whose
--       id is part modulo parts: a completer lane's share of the queue while several lanes renew, ADR 0032;
--       0 and 1 for the whole queue)}, …]
-- Claim order is (priority, run_at in microseconds since the epoch, id); (0, 0, 0) comes before every job. Starting
-- the index scan at the key skips the dead entries that earlier claims left at the head of the queue's part of
-- jobs_available (ADR 0024); the row comparison is an index condition of that index, one scan per queue.
-- The pick must be a CTE: as a FROM-subquery the planner may merge it into the UPDATE and ignore the LIMIT.
-- SKIP LOCKED lets concurrent dispatchers pass each other; the lock the pick takes reads the newest version of each
-- row and skips one that no longer matches, so every picked row is available and ours until the statement ends.
-- The update finds the picked rows through the primary key (id = ANY) and nothing else: joined to the pick, whose
-- size the planner can only guess from the JSON, it liked to hash the table, and with a condition on the state it
-- liked to read the whole of jobs_available.
-- A paused queue yields nothing, on every instance, from the moment the pause commits.
-- Both parts read the statement's one snapshot: a job this statement's outcomes make available again is not claimed
-- by it (its announcement brings the next claim).
--
-- The commit need not wait for the disk: an outcome or a claim lost in a crash only means the job runs again
-- (set_config is local to the transaction, and saves the round trip of a separate SET LOCAL).
--
-- Answer: one row per applied outcome (finished = true: id, the state the job was left in, and in the last column
-- how many queues were notified), then one row per claimed job (finished = false: id, kind, queue, args, attempt,
-- max_attempts, run_lease, priority, checkpoint, how long the job had been due when the statement began in ms on the
-- database's clock — the first part of the pickup latency — and run_at in microseconds since the epoch).
WITH relaxed AS (
    SELECT set_config('synchronous_commit', 'off', true)
),
outcome AS (
    SELECT *
    FROM unnest(CAST(?1 AS bigint[]), CAST(?2 AS bigint[]), CAST(?3 AS text[]), CAST(?4 AS bigint[]),
                CAST(?5 AS text[]), CAST(?6 AS boolean[]))
         AS o(id, lease, state, delay_ms, error, refund)
),
-- The rows are found through the primary key alone (id = ANY of the ids themselves, not of a subquery), and locked
-- whatever their lease and state: both are matched in decided, against the newest version of each row, which the lock
-- reads and holds until the statement ends. With state = 'running' as a condition here the planner liked to scan the
-- whole jobs_running index, dead entries and all, for a batch of a few ids; the lease checked here cost a join per
-- turn, and a late outcome (the one that does not match) is rare.
-- Nor is the state a condition of the update: on the generic plan the engine's sessions keep (ADR 0034), with the
-- statistics saying that few jobs run, the update then read every running job through jobs_running and compared
-- each with every locked row and every outcome (100 running and 50 outcomes: 7,400 rows compared for nothing, twice
-- the execution). Without it the update can only find its rows by id.
locked AS (
    SELECT j.id, j.run_lease, j.state = 'running' AS running, j.cancel_requested_at IS NOT NULL AS cancel
    FROM weir.jobs AS j
    WHERE j.id = ANY (CAST(?1 AS bigint[]))
    ORDER BY j.id
    FOR UPDATE OF j
),
-- Each outcome with the state it really leads to: cancelled when an operator asked for it and the attempt did not
-- complete.
decided AS (
    SELECT o.id, o.lease, o.delay_ms, o.refund,
           CASE WHEN l.cancel AND o.state <> 'completed' THEN 'cancelled' ELSE o.state END AS state,
           CASE WHEN l.cancel AND o.state <> 'completed'
                THEN 'cancelled by an operator' || coalesce(' (the attempt ended: ' || o.error || ')', '')
                ELSE o.error END AS error
    FROM locked AS l
    JOIN outcome AS o ON o.id = l.id AND o.lease = l.run_lease
    WHERE l.running
),
finished AS (
    UPDATE weir.jobs AS j
    SET state        = o.state,
        run_at       = CASE WHEN o.state IN ('available', 'scheduled', 'retryable')
                            THEN now() + o.delay_ms * interval '1 millisecond'
                            ELSE j.run_at END,
        finalized_at = CASE WHEN o.state IN ('completed', 'discarded', 'cancelled') THEN now() END,
        attempt      = CASE WHEN o.refund THEN j.attempt - 1 ELSE j.attempt END,
        -- A job that waits again starts a new wait: priority aging starts over from the submitted priority.
        priority     = CASE WHEN o.state IN ('available', 'scheduled', 'retryable')
                            THEN coalesce(j.base_priority, j.priority) ELSE j.priority END,
        base_priority = CASE WHEN o.state IN ('available', 'scheduled', 'retryable')
                             THEN NULL ELSE j.base_priority END,
        errors       = CASE WHEN o.error IS NULL THEN j.errors
                            ELSE j.errors || jsonb_build_array(jsonb_build_object(
                                     'attempt', j.attempt, 'at', now(), 'error', o.error)) END,
        progress     = CASE WHEN o.state = 'completed' THEN NULL ELSE j.progress END,
        owner        = NULL,
        deadline_at  = NULL
    FROM decided AS o, relaxed
    WHERE j.id = o.id
    RETURNING j.id, j.queue, j.state
),
woken AS (
    SELECT pg_notify('weir_jobs', queue)
    FROM (SELECT DISTINCT queue FROM finished WHERE state = 'available') AS q
),
wanted AS (
    SELECT *
    FROM jsonb_to_recordset(CAST(?7 AS jsonb))
         AS w(queue text, n integer, deadline_ms bigint, priority integer, run_at_us bigint, id bigint,
            part integer, parts integer)
),
picked AS (
    SELECT p.id
    FROM wanted AS w
    CROSS JOIN LATERAL (
        SELECT j.id
        FROM weir.jobs AS j
        WHERE j.state = 'available'
          AND j.queue = w.queue
          AND (j.priority, j.run_at, j.id)
              > (w.priority, timestamptz 'epoch' + w.run_at_us * interval '1 microsecond', w.id)
          AND NOT EXISTS (SELECT 1 FROM weir.queues AS q WHERE q.name = w.queue AND q.paused)
          AND j.id % w.parts = w.part
        ORDER BY j.priority, j.run_at, j.id
        LIMIT w.n
        FOR UPDATE OF j SKIP LOCKED
    ) AS p
),
claimed AS (
    UPDATE weir.jobs AS j
    SET state        = 'running',
        attempt      = j.attempt + 1,
        attempted_at = now(),
        run_lease    = j.run_lease + 1,
        owner        = ?8,
        deadline_at  = now() + w.deadline_ms * interval '1 millisecond'
    FROM wanted AS w, relaxed
    WHERE j.id = ANY (ARRAY(SELECT id FROM picked))
      AND w.queue = j.queue
    RETURNING j.id, j.kind, j.queue, CAST(j.args AS text) AS args, j.attempt, j.max_attempts, j.run_lease, j.priority,
              CAST(j.progress -> 'checkpoint' AS text) AS checkpoint,
              CAST(greatest(0, extract(epoch FROM now() - j.run_at) * 1000) AS bigint) AS due_ms,
              CAST(extract(epoch FROM j.run_at) * 1000000 AS bigint) AS run_at_us
)
SELECT true AS finished, id, state, CAST(NULL AS text), CAST(NULL AS text), CAST(NULL AS integer),
       CAST(NULL AS integer), CAST(NULL AS bigint), CAST(NULL AS integer), CAST(NULL AS text), CAST(NULL AS bigint),
       CAST(NULL AS bigint), (SELECT count(*) FROM woken)
FROM finished
UNION ALL
SELECT false, id, kind, queue, args, attempt, max_attempts, run_lease, priority, checkpoint, due_ms, run_at_us,
       CAST(NULL AS bigint)
FROM claimed
