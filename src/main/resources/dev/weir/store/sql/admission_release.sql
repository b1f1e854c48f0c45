-- Gives back slots ?3 of queue ?1 that are leased to instance ?2 and were not used (ADR 0033): free again for every
-- submitter. Never waits: a slot another transaction holds locked (a submitter whose lock re-check followed it into
-- its lease keeps the lock until it ends) is skipped and stays leased. A slot no longer leased to ?2 is left alone.
-- Answers one row per slot of ?3 still leased to ?2: (slot, true) given back, (slot, false) skipped, still leased.
WITH mine AS (
    SELECT slot
    FROM weir.admission_slots
    WHERE queue = ?1
      AND slot = ANY (CAST(?3 AS integer[]))
      AND leased_to = ?2
    FOR UPDATE SKIP LOCKED
),
released AS (
    UPDATE weir.admission_slots AS s
    SET leased_to = NULL
    FROM mine
    WHERE s.queue = ?1
      AND s.slot = mine.slot
    RETURNING s.slot
)
SELECT slot, true
FROM released
UNION ALL
SELECT s.slot, false
FROM weir.admission_slots AS s
WHERE s.queue = ?1
  AND s.slot = ANY (CAST(?3 AS integer[]))
  AND s.leased_to = ?2
  AND s.slot NOT IN (SELECT slot FROM released)
