-- The leader's vacuum (ADR 0027): for each of Weir's tables, its dead rows, how many vacuums (manual and auto) it
-- has had, whether one is under way now, and (amendment "a table that only grows") its live rows and the rows
-- inserted since its last vacuum. Read-only; the statistics may lag writes by about a second.
SELECT s.relname,
       s.n_dead_tup,
       s.vacuum_count + s.autovacuum_count,
       EXISTS (SELECT 1 FROM pg_stat_progress_vacuum p WHERE p.relid = s.relid),
       s.n_live_tup,
       s.n_ins_since_vacuum
FROM pg_stat_user_tables s
WHERE s.schemaname = 'weir'
ORDER BY s.relname
