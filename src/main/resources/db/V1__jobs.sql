-- Weir's tables. Applied once by dev.weir.store.Migrator under an advisory lock.

CREATE TABLE weir.jobs (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind          text        NOT NULL,
    queue         text        NOT NULL,
    args          jsonb       NOT NULL DEFAULT '{}',
    priority      smallint    NOT NULL DEFAULT 2 CHECK (priority BETWEEN 1 AND 4),
    state         text        NOT NULL CHECK (state IN ('scheduled', 'available', 'running', 'retryable',
                                                        'completed', 'discarded', 'cancelled')),
    attempt       integer     NOT NULL DEFAULT 0,
    max_attempts  integer     NOT NULL DEFAULT 25 CHECK (max_attempts >= 1),
    run_at        timestamptz NOT NULL DEFAULT now(),
    created_at    timestamptz NOT NULL DEFAULT now(),
    attempted_at  timestamptz,
    finalized_at  timestamptz,
    -- One entry per failed attempt: {"attempt": n, "at": time, "error": text}.
    errors        jsonb       NOT NULL DEFAULT '[]',
    -- Grows by one at every claim; every write about a running attempt matches (id, run_lease).
    run_lease     bigint      NOT NULL DEFAULT 0,
    -- While running: the instance that claimed it, and when the attempt must be over.
    owner         text,
    deadline_at   timestamptz
);

-- The claim: the next available jobs of one queue in priority order. Partial, so it stays small however
-- many finished jobs the table keeps.
CREATE INDEX jobs_available ON weir.jobs (queue, priority, run_at, id) WHERE state = 'available';

-- The scheduler: waiting jobs that fall due.
CREATE INDEX jobs_waiting ON weir.jobs (run_at) WHERE state IN ('scheduled', 'retryable');

-- The rescuer: running jobs by the instance that owns them.
CREATE INDEX jobs_running ON weir.jobs (owner) WHERE state = 'running';

-- Retention clean-up. There is deliberately no index on (queue, state): with statistics lagging behind a burst of
-- inserts the planner took it for the claim, fetched every available job of the queue and sorted them (16 ms
-- instead of a fraction of one), where jobs_available hands them over already in claim order.
CREATE INDEX jobs_finalized ON weir.jobs (finalized_at) WHERE finalized_at IS NOT NULL;

-- One row per running instance, its heartbeat written every weir.heartbeat-interval. A running job whose
-- owner's row is stale (or gone) is rescued.
CREATE TABLE weir.instances (
    id            text        PRIMARY KEY,
    started_at    timestamptz NOT NULL DEFAULT now(),
    heartbeat_at  timestamptz NOT NULL DEFAULT now()
);

-- Operator state of a queue; a queue with no row is not paused.
CREATE TABLE weir.queues (
    name          text        PRIMARY KEY,
    paused        boolean     NOT NULL DEFAULT false,
    updated_at    timestamptz NOT NULL DEFAULT now()
);
