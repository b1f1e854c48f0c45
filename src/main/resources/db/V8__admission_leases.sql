-- Leased admission slots (ADR 0033). An instance may lease free slots of a bounded queue ahead of its submissions,
-- in a short transaction of its own, and later give each to one job without looking for it. A leased slot belongs to
-- that instance's submitters alone: it is free for nobody else, and it is not outstanding work either (it points at
-- no job). The instance gives a lease back when it goes unused, when a submission would otherwise be refused, and
-- when it stops; the leader gives back the leases of instances whose heartbeat has gone stale.
-- Not indexed: an index on leased_to would make the lease and its use ordinary (non-HOT) updates that write an index
-- entry each. Only the leader's search for stale leases reads every slot, at the heartbeat's pace.
ALTER TABLE weir.admission_slots ADD COLUMN leased_to text;
