package dev.weir.store;

/**
 * A job this instance has just claimed: one attempt of it, named by {@code (id, lease)}.
 *
 * @param attempt this attempt's number (1 for the first)
 * @param lease   the job's {@code run_lease} after this claim; every write about this attempt must match it
 * @param checkpointJson the checkpoint an earlier attempt recorded with its progress (JSON), or null
 */
public record ClaimedJob(long id, String kind, String queue, String argsJson, int attempt, int maxAttempts, long lease,
        int priority, String checkpointJson) {

    /** A claimed job with no checkpoint. */
    public ClaimedJob(long id, String kind, String queue, String argsJson, int attempt, int maxAttempts, long lease,
            int priority) {
        this(id, kind, queue, argsJson, attempt, maxAttempts, lease, priority, null);
    }

    public boolean lastAttempt() {
        return attempt >= maxAttempts;
    }
}
