-- Operator cancel of job ?1, locked by the caller, while it waits (scheduled, available, retryable): cancelled at once,
-- with the reason in its error history. Its admission slot, if any, is free from the commit on (ADR 0011).
UPDATE weir.jobs
SET state               = 'cancelled',
    finalized_at        = now(),
    cancel_requested_at = now(),
    errors              = errors || jsonb_build_array(jsonb_build_object(
                              'attempt', attempt, 'at', now(), 'error', 'cancelled by an operator'))
WHERE id = ?1
  AND state IN ('scheduled', 'available', 'retryable')
