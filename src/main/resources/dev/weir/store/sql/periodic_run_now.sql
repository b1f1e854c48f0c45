-- "Run now": inserts one job for periodic job ?1 (kind ?2, queue ?3, args ?4) at once, whatever its schedule or
-- pause, and notes the time; the schedule's next fire is not moved. Answers the job's id if the periodic job exists.
WITH noted AS (
    UPDATE weir.periodic_jobs
    SET last_fire_at = now()
    WHERE name = ?1
    RETURNING name
)
INSERT INTO weir.jobs (kind, queue, args, state)
SELECT ?2, ?3, CAST(?4 AS jsonb), 'available'
FROM noted
RETURNING id
