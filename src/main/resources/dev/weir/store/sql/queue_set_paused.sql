-- Pauses (?2 = true) or resumes (?2 = false) queue ?1. The claim reads the flag, so a pause holds on every
-- instance as soon as it commits; a resume wakes the queue's dispatchers. Both tell every instance on the control
-- channel ('pause:<queue>', 'resume:<queue>'), so that a dispatcher of a paused queue stops claiming each time a
-- submission wakes it (its claims would find nothing); its polls still read the flag.
WITH changed AS (
    INSERT INTO weir.queues (name, paused, updated_at)
    VALUES (?1, ?2, now())
    ON CONFLICT (name) DO UPDATE SET paused = excluded.paused, updated_at = now()
    RETURNING name, paused
),
told AS (
    SELECT pg_notify('weir_control', CASE WHEN paused THEN 'pause:' ELSE 'resume:' END || name)
    FROM changed
)
SELECT name, (SELECT count(*) FROM told),
       (SELECT count(*) FROM (SELECT pg_notify('weir_jobs', name) FROM changed WHERE NOT paused) AS n)
FROM changed
