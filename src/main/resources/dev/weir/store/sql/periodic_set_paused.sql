-- Pauses (?2 true) or resumes periodic job ?1; a paused one is skipped by the leader until resumed. Answers 1 if
-- the job exists.
UPDATE weir.periodic_jobs
SET paused = ?2
WHERE name = ?1
