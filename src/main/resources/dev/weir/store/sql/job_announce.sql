-- Wakes the dispatchers of queues ?1 (a text array) on every instance, after their new jobs committed.
SELECT count(pg_notify('weir_jobs', queue))
FROM unnest(CAST(?1 AS text[])) AS q(queue)
