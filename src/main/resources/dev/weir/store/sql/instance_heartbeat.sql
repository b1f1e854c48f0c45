-- Proves instance ?1 is alive. One row per instance, not one per job: the cost does not grow with load.
INSERT INTO weir.instances (id, started_at, heartbeat_at)
VALUES (?1, now(), now())
ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()
