-- One job, for the REST API.
SELECT id, kind, queue, state, attempt, max_attempts, priority, run_at, created_at, attempted_at, finalized_at,
       CAST(errors AS text), CAST(args AS text), CAST(progress AS text), cancel_requested_at IS NOT NULL
FROM weir.jobs
WHERE id = ?1
