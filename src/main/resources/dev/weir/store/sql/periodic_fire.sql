-- Fires the periodic job ?1 once: only if its next fire is still ?2 (epoch seconds; compare-and-set, so whoever
-- fires first wins and a leader that lost its lock in between finds nothing), moves it to ?3 (epoch seconds) and
-- inserts one job (kind ?4, queue ?5, args ?6) in the same statement. Answers the new job's id, or nothing.
WITH fired AS (
    UPDATE weir.periodic_jobs
    SET next_fire_at = to_timestamp(?3),
        last_fire_at = now()
    WHERE name = ?1
      AND extract(epoch FROM next_fire_at) = ?2
      AND NOT paused
    RETURNING name
)
INSERT INTO weir.jobs (kind, queue, args, state)
SELECT ?4, ?5, CAST(?6 AS jsonb), 'available'
FROM fired
RETURNING id
