-- The leader gives back the leases of instances that are gone or have not written a heartbeat for ?1 ms (ADR 0033),
-- as the rescuer takes back their running jobs. Reads every slot (leased_to has no index, to keep the lease and its
-- use HOT updates). Never waits: a slot another transaction holds locked is left for the next round. Answers how many
-- slots came back.
WITH stale AS (
    SELECT s.queue, s.slot
    FROM weir.admission_slots AS s
    WHERE s.leased_to IS NOT NULL
      AND NOT EXISTS (SELECT 1
                      FROM weir.instances AS i
                      WHERE i.id = s.leased_to
                        AND i.heartbeat_at >= now() - ?1 * interval '1 millisecond')
    FOR UPDATE OF s SKIP LOCKED
),
released AS (
    UPDATE weir.admission_slots AS s
    SET leased_to = NULL
    FROM stale
    WHERE s.queue = stale.queue
      AND s.slot = stale.slot
    RETURNING 1
)
SELECT count(*)
FROM released
