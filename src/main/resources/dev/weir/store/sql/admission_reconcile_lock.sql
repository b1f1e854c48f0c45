-- Start-up reconciliation of admission slots runs under this transaction-scoped advisory lock (?1): instances
-- that start together take turns.
SELECT pg_advisory_xact_lock(?1)
