-- Proves instance ?1 is alive. One row per instance, not one per job: the cost does not grow with load.
-- Answers whether another instance wrote a heartbeat within the last ?2 ms (rescue-after: the instances not yet taken
-- for dead), which tells this one whether anybody listens to its announcements (ADR 0040).
WITH beat AS (
    INSERT INTO weir.instances (id, started_at, heartbeat_at)
    VALUES (?1, now(), now())
    ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()
)
SELECT EXISTS (SELECT 1
               FROM weir.instances
               WHERE id <> ?1
                 AND heartbeat_at > now() - ?2 * interval '1 millisecond')
