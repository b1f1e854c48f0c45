-- Removes slots of queue ?1 until it has ?2: free slots first, then the most recently given out. A removed slot
-- that was taken leaves its job outstanding without a slot until it finishes (the queue is over its new bound
-- until then). The caller holds every slot of the queue (admission_slot_lock.sql), so this snapshot is current.
WITH surplus AS (
    SELECT s.slot
    FROM weir.admission_slots AS s
    LEFT JOIN weir.jobs AS j ON j.id = s.job_id
    WHERE s.queue = ?1
    ORDER BY (j.id IS NULL OR j.state IN ('completed', 'cancelled', 'discarded')) DESC, s.assigned_at DESC, s.slot DESC
    LIMIT greatest((SELECT count(*) FROM weir.admission_slots WHERE queue = ?1) - ?2, 0)
)
DELETE FROM weir.admission_slots AS s
USING surplus
WHERE s.queue = ?1
  AND s.slot = surplus.slot
