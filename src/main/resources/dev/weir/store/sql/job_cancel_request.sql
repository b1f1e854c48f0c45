-- Operator cancel of job ?1, locked by the caller, while it runs: records the request (its first time is kept) and
-- tells every instance on the control channel when the transaction commits; the instance running the attempt signals
-- its handler, and the attempt's outcome, unless it completes, is written as cancelled (job_turn.sql).
WITH requested AS (
    UPDATE weir.jobs
    SET cancel_requested_at = coalesce(cancel_requested_at, now())
    WHERE id = ?1
      AND state = 'running'
    RETURNING id
)
SELECT count(pg_notify('weir_control', 'cancel:' || id))
FROM requested
