-- The periodic jobs whose next fire has come and that are not paused, with that fire time in epoch seconds.
SELECT name, CAST(extract(epoch FROM next_fire_at) AS bigint)
FROM weir.periodic_jobs
WHERE next_fire_at <= now()
  AND NOT paused
