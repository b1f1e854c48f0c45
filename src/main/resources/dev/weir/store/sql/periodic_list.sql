-- Every periodic job the database knows, for the admin API: name, paused, next and last fire (epoch seconds).
SELECT name, paused, CAST(extract(epoch FROM next_fire_at) AS bigint),
       CAST(extract(epoch FROM last_fire_at) AS bigint)
FROM weir.periodic_jobs
ORDER BY name
