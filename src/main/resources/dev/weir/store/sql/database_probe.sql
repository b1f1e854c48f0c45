-- Readiness: the database answers and Weir's schema is there. Read-only.
SELECT count(*) FROM weir.instances
