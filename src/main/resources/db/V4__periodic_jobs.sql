-- Periodic (cron) jobs: one row per configured name. next_fire_at is the fire the leader waits for; firing moves it
-- forward with a compare-and-set in the statement that inserts the job, so a fire happens once even when the
-- leader changes in between.
CREATE TABLE weir.periodic_jobs (
    name          text        PRIMARY KEY,
    schedule      text        NOT NULL,
    time_zone     text        NOT NULL,
    next_fire_at  timestamptz NOT NULL,
    last_fire_at  timestamptz,
    paused        boolean     NOT NULL DEFAULT false
);
