-- Retention: deletes at most ?3 jobs in the terminal state ?1 that reached it more than ?2 ms ago, oldest first,
-- and answers how many. Run by the leader only, in bounded batches, so that no statement holds many row locks or
-- runs long. finalized_at < … implies finalized_at IS NOT NULL, so the partial index jobs_finalized serves it.
-- The delete finds the doomed rows through the primary key (id = ANY), not by a join: on its generic plan (the
-- engine's sessions keep generic plans, ADR 0034) a join guessed a tenth of the table and merge-joined it along the
-- primary key, reading 82,000 index entries to delete 1,000 rows.
WITH doomed AS (
    SELECT id
    FROM weir.jobs
    WHERE finalized_at < now() - ?2 * interval '1 millisecond'
      AND state = ?1
    ORDER BY finalized_at
    LIMIT ?3
    FOR UPDATE SKIP LOCKED
),
deleted AS (
    DELETE FROM weir.jobs AS j
    WHERE j.id = ANY (ARRAY(SELECT id FROM doomed))
    RETURNING j.id
)
SELECT count(*)
FROM deleted
