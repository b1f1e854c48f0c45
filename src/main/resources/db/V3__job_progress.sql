-- Progress a handler reports for its job: {"percent", "message", "checkpoint", "at"}; NULL when none. It survives
-- retries (a later attempt resumes from the checkpoint) and is cleared when the job completes.
ALTER TABLE weir.jobs ADD COLUMN progress jsonb;
