-- Locks every admission slot of queue ?1 before its slots are added, removed or given to existing jobs. Waits for
-- submissions in progress (start-up only); submitters meanwhile skip the locked slots and are refused, never held.
SELECT slot
FROM weir.admission_slots
WHERE queue = ?1
ORDER BY slot
FOR UPDATE
