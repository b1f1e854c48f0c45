-- Priority aging: the priority a job was submitted with, kept once aging has moved its priority up. NULL means
-- it never aged: priority is then the submitted one. Nothing is written at insert, so submissions cost the same.
ALTER TABLE weir.jobs ADD COLUMN base_priority smallint;
