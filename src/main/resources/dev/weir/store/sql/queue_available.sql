-- Available jobs per queue (a queue with none is absent), for the metrics' depth gauge: read through the partial
-- index jobs_available (the state literal must stay a literal to match it), at most every few seconds.
SELECT queue, count(*)
FROM weir.jobs
WHERE state = 'available'
GROUP BY queue
