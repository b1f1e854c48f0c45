-- Jobs finalized per bucket and terminal state (ADR 0021): from epoch second ?1 (inclusive) to ?2 (exclusive), in
-- buckets of ?3 seconds numbered from 0, of queue ?4 ('' = all). One range scan of the partial index jobs_finalized;
-- buckets with no job are absent (the caller fills them in).
SELECT CAST(floor((extract(epoch FROM finalized_at) - ?1) / ?3) AS bigint) AS bucket, state, count(*)
FROM weir.jobs
WHERE finalized_at >= to_timestamp(?1)
  AND finalized_at < to_timestamp(?2)
  AND (?4 = '' OR queue = ?4)
GROUP BY 1, 2
