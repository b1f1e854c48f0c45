-- Whether queue ?1 has an available job: one probe of jobs_available. Weighted mode asks it before an idle queue
-- requests shared capacity.
SELECT EXISTS (SELECT 1 FROM weir.jobs WHERE state = 'available' AND queue = ?1)
