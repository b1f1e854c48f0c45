-- Pauses (?2 = true) or resumes (?2 = false) queue ?1; every instance reads it within one maintenance tick.
INSERT INTO weir.queues (name, paused, updated_at)
VALUES (?1, ?2, now())
ON CONFLICT (name) DO UPDATE SET paused = excluded.paused, updated_at = now()
