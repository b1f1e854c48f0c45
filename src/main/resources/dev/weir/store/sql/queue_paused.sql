-- Queues an operator has paused.
SELECT name
FROM weir.queues
WHERE paused
