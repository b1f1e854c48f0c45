-- Removes instance ?1 when it stops cleanly, or instances silent for more than ?2 ms.
DELETE FROM weir.instances
WHERE id = ?1
   OR heartbeat_at < now() - ?2 * interval '1 millisecond'
