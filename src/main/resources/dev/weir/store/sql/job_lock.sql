-- Locks job ?1 for an operator action (retry, cancel, discard) and answers its queue and state, and whether making it
-- outstanding again would clash with another job holding its unique key (ADR 0019: a terminal job whose state is not
-- among its blocking states gave its key up, and another job may hold it now). The clash check reads the partial
-- unique index jobs_unique.
SELECT j.id, j.queue, j.state,
       j.unique_key IS NOT NULL
       AND NOT (j.state = ANY (j.unique_states))
       AND EXISTS (SELECT 1 FROM weir.jobs AS o
                   WHERE o.unique_key = j.unique_key
                     AND o.state = ANY (o.unique_states)
                     AND o.id <> j.id) AS unique_clash
FROM weir.jobs AS j
WHERE j.id = ?1
FOR UPDATE
