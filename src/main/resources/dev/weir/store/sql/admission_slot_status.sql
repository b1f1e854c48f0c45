-- Start-up check of one bounded queue ?1 (ADR 0011): how many admission slots it has, and whether any of its
-- outstanding jobs holds none (submitted while the queue was unbounded). Each branch of the union matches one of
-- the partial indexes of weir.jobs, so this reads the outstanding jobs only, not the finished ones; EXCEPT compares
-- the two sets by hashing or sorting, never one slot scan per job (there is no index on job_id).
SELECT (SELECT count(*) FROM weir.admission_slots WHERE queue = ?1) AS slots,
       EXISTS (SELECT id FROM weir.jobs WHERE queue = ?1 AND state = 'available'
               UNION ALL
               SELECT id FROM weir.jobs WHERE state IN ('scheduled', 'retryable') AND queue = ?1
               UNION ALL
               SELECT id FROM weir.jobs WHERE state = 'running' AND queue = ?1
               EXCEPT ALL
               SELECT job_id FROM weir.admission_slots WHERE queue = ?1 AND job_id IS NOT NULL) AS orphans
