-- Elastic admission (ADR 0011). A queue with weir.queue.<q>.max-pending = P owns exactly P rows here, one per
-- unit of room. A slot is taken while it points at a job that is not terminal; it is free when job_id is null,
-- when its job is completed, cancelled or discarded, or when its job no longer exists. So room comes back by
-- itself on every path that ends or deletes a job, and nothing on the completion path writes here.
-- There is deliberately no foreign key: deleting a job must free its slot without touching this table.
-- Only the primary key is indexed: taking a slot changes job_id and assigned_at, neither indexed, so the update is a
-- HOT update that adds no index entry, and the fill factor leaves each page room for the new row versions.
CREATE TABLE weir.admission_slots (
    queue        text        NOT NULL,
    slot         integer     NOT NULL,
    job_id       bigint,
    -- When the slot was last given to a job (-infinity: never); for operators and start-up reconciliation.
    assigned_at  timestamptz NOT NULL DEFAULT '-infinity',
    PRIMARY KEY (queue, slot)
) WITH (fillfactor = 50);
