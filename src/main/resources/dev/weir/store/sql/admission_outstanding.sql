-- Outstanding jobs per bounded queue: the jobs holding one of its admission slots that are not terminal yet.
-- One primary-key look-up per slot; read-only, for the REST API and health.
SELECT s.queue, count(*)
FROM weir.admission_slots AS s
JOIN weir.jobs AS j ON j.id = s.job_id
WHERE j.state IN ('scheduled', 'available', 'running', 'retryable')
GROUP BY s.queue
