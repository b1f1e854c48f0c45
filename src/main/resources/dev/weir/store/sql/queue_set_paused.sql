-- Pauses (?2 = true) or resumes (?2 = false) queue ?1. The claim reads the flag, so a pause holds on every
-- instance as soon as it commits; a resume wakes the queue's dispatchers.
WITH changed AS (
    INSERT INTO weir.queues (name, paused, updated_at)
    VALUES (?1, ?2, now())
    ON CONFLICT (name) DO UPDATE SET paused = excluded.paused, updated_at = now()
    RETURNING name, paused
)
SELECT name, (SELECT count(*) FROM (SELECT pg_notify('weir_jobs', name) FROM changed WHERE NOT paused) AS n)
FROM changed
