-- Makes sure the periodic job ?1 exists with schedule ?2 in zone ?3; ?4 is its next fire from now (epoch seconds). A row whose
-- schedule and zone are unchanged keeps its next fire (a restart neither skips nor repeats one); a changed one
-- starts over from now.
INSERT INTO weir.periodic_jobs (name, schedule, time_zone, next_fire_at)
VALUES (?1, ?2, ?3, to_timestamp(?4))
ON CONFLICT (name) DO UPDATE
SET schedule     = excluded.schedule,
    time_zone    = excluded.time_zone,
    next_fire_at = CASE WHEN weir.periodic_jobs.schedule = excluded.schedule
                         AND weir.periodic_jobs.time_zone = excluded.time_zone
                        THEN weir.periodic_jobs.next_fire_at ELSE excluded.next_fire_at END
