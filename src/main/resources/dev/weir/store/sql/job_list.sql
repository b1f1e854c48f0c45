-- A page of job summaries for the admin API, newest first (ADR 0021): the jobs below id ?1 that match the filters
-- (?2 state, ?3 queue, ?4 kind; '' = any), at most ?5 of them, looking at no more than the ?6 highest ids below ?1.
-- The look is one backward range scan of the primary key with its own LIMIT, so a page costs at most ?6 index
-- entries and row reads however large the table is and however rare the filter; a page may therefore hold fewer than
-- ?5 jobs while older ones remain. Answers the page's rows, each with the lowest id looked at and how many were
-- looked at, or, when nothing matched, one row of nulls with those two figures.
WITH looked AS (
    SELECT id, state, queue, kind
    FROM weir.jobs
    WHERE id < ?1
    ORDER BY id DESC
    LIMIT ?6
),
hit AS (
    SELECT id
    FROM looked
    WHERE (?2 = '' OR state = ?2)
      AND (?3 = '' OR queue = ?3)
      AND (?4 = '' OR kind = ?4)
    ORDER BY id DESC
    LIMIT ?5
),
page AS (
    SELECT j.id, j.kind, j.queue, j.state, j.attempt, j.max_attempts, j.priority, j.run_at, j.created_at,
           j.attempted_at, j.finalized_at, j.errors -> -1 ->> 'error' AS last_error, CAST(j.progress AS text) AS progress,
           j.cancel_requested_at IS NOT NULL AS cancel_requested
    FROM hit
    JOIN weir.jobs AS j ON j.id = hit.id
)
SELECT p.*, (SELECT min(id) FROM looked), (SELECT count(*) FROM looked)
FROM page AS p
UNION ALL
SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       (SELECT min(id) FROM looked), (SELECT count(*) FROM looked)
WHERE NOT EXISTS (SELECT 1 FROM page)
ORDER BY 1 DESC NULLS LAST
