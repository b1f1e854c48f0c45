-- Gives the planner the admission slots' statistics after start-up reconciliation added or removed slots (ADR 0037):
-- the admission statement's generic plan is made from them. SKIP_LOCKED: a vacuum or an analysis already under way
-- (autovacuum's, the leader's, another instance's) is not waited for.
ANALYZE (SKIP_LOCKED) weir.admission_slots
