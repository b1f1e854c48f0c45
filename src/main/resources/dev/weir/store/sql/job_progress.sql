-- Records the progress ?3 (a JSON object {"percent", "message", "checkpoint"}) of the attempt (id ?1, lease ?2),
-- stamped with the time, if that attempt still runs; a rescued or ended attempt writes nothing.
UPDATE weir.jobs
SET progress = CAST(?3 AS jsonb) || jsonb_build_object('at', now())
WHERE id = ?1
  AND run_lease = ?2
  AND state = 'running'
