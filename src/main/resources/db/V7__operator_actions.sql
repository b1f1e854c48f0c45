-- Operator actions (ADR 0021). An operator's cancel of a running job is recorded here, so that it reaches the
-- attempt on whichever instance runs it (a NOTIFY tells it at once; its heartbeat finds the request otherwise), and
-- so that the attempt's outcome, whatever it is but a completion, is written as cancelled. NULL: no request.
-- Nullable without a default: adding it rewrites nothing, and no index names it, so no claim or outcome pays for it.
ALTER TABLE weir.jobs ADD COLUMN cancel_requested_at timestamptz;
