-- The leader's vacuum (ADR 0027): for each of Weir's tables, its dead rows, how many vacuums (manual and auto) it
-- has had, and whether one is under way now. Read-only; the statistics may lag writes by about a second.
SELECT s.relname,
       s.n_dead_tup,
       s.vacuum_count + s.autovacuum_count,
       EXISTS (SELECT 1 FROM pg_stat_progress_vacuum p WHERE p.relid = s.relid)
FROM pg_stat_user_tables s
WHERE s.schemaname = 'weir'
ORDER BY s.relname
