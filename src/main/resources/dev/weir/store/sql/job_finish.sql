-- Records a batch of attempt outcomes in one statement. Each outcome names the attempt by (id, lease) and
-- applies only while that attempt is still running: a late outcome from a rescued or re-claimed attempt
-- matches nothing. Rows are locked in id order so concurrent multi-row writers cannot deadlock.
-- ?1: [{"id", "lease", "state", "delay_ms", "error" (null: none), "refund" (give the attempt back)}, …]
-- The commit need not wait for the disk: an outcome lost in a crash only means the job runs again.
-- An attempt whose job an operator asked to cancel (cancel_requested_at) ends cancelled unless it completed, whatever
-- outcome it brought (ADR 0021); the reason and the attempt's own error go into the history.
WITH relaxed AS (
    SELECT set_config('synchronous_commit', 'off', true)
),
outcome AS (
    SELECT *
    FROM jsonb_to_recordset(CAST(?1 AS jsonb))
         AS o(id bigint, lease bigint, state text, delay_ms bigint, error text, refund boolean)
),
-- The rows are found through the primary key alone (id = ANY), and the state is checked only when updating: with
-- state = 'running' here the planner liked to scan the whole jobs_running index, dead entries and all, for a
-- batch of a few ids.
locked AS (
    SELECT j.id, j.cancel_requested_at IS NOT NULL AS cancel
    FROM weir.jobs AS j
    WHERE j.id = ANY (ARRAY(SELECT id FROM outcome))
      AND EXISTS (SELECT 1 FROM outcome AS o WHERE o.id = j.id AND o.lease = j.run_lease)
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
    JOIN outcome AS o ON o.id = l.id
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
      AND j.state = 'running'
    RETURNING j.id, j.queue, j.state
),
woken AS (
    SELECT pg_notify('weir_jobs', queue)
    FROM (SELECT DISTINCT queue FROM finished WHERE state = 'available') AS q
)
SELECT id, (SELECT count(*) FROM woken)
FROM finished
