-- Tells the instances already running that this one has started (ADR 0040): a notification on the jobs channel with
-- an empty payload, which names no queue. An instance that believed itself alone sends its announcements from then on.
SELECT pg_notify('weir_jobs', '')
