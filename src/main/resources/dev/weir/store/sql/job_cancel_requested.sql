-- The fallback for cancel requests whose NOTIFY was lost (ADR 0021): the running attempts of instance ?1 that an
-- operator asked to cancel, as (id, run_lease). Reads the partial index jobs_running (owner), so it costs as many rows
-- as the instance runs jobs; asked with the heartbeat, only while the instance runs any.
SELECT id, run_lease
FROM weir.jobs
WHERE state = 'running'
  AND owner = ?1
  AND cancel_requested_at IS NOT NULL
