-- Jobs per queue and state, for the REST API and health.
SELECT queue, state, count(*)
FROM weir.jobs
GROUP BY queue, state
