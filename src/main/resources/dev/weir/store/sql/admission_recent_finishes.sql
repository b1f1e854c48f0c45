-- How many jobs of queue ?1 reached a terminal state in the last ?2 ms, counting at most ?3: the completion rate
-- behind a refusal's suggested retry-after. Walks the jobs_finalized index from the recent end only.
SELECT count(*)
FROM (SELECT 1
      FROM weir.jobs
      WHERE finalized_at > statement_timestamp() - ?2 * interval '1 millisecond'
        AND queue = ?1
      LIMIT ?3) AS recent
