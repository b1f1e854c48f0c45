-- Bulk retry (ADR 0021): the next discarded jobs after id ?1, in id order, of queue ?2 and kind ?3 ('' = any), at most
-- ?4, locked (SKIP LOCKED: a job another transaction holds is left for a later call), each with its queue and whether
-- its unique key clashes (see job_lock.sql). Discarded jobs are finalized, so the partial index jobs_finalized holds
-- them; the planner reads it or the primary key from ?1 on.
SELECT j.id, j.queue,
       j.unique_key IS NOT NULL
       AND NOT (j.state = ANY (j.unique_states))
       AND EXISTS (SELECT 1 FROM weir.jobs AS o
                   WHERE o.unique_key = j.unique_key
                     AND o.state = ANY (o.unique_states)
                     AND o.id <> j.id) AS unique_clash
FROM weir.jobs AS j
WHERE j.state = 'discarded'
  AND j.finalized_at IS NOT NULL
  AND j.id > ?1
  AND (?2 = '' OR j.queue = ?2)
  AND (?3 = '' OR j.kind = ?3)
ORDER BY j.id
LIMIT ?4
FOR UPDATE OF j SKIP LOCKED
