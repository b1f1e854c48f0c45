-- Adds slots to queue ?1 until it has ?2, numbered after the highest one.
INSERT INTO weir.admission_slots (queue, slot)
SELECT ?1, coalesce((SELECT max(slot) FROM weir.admission_slots WHERE queue = ?1), 0) + g
FROM generate_series(1, ?2 - (SELECT count(*) FROM weir.admission_slots WHERE queue = ?1)) AS g
