package dev.weir.store;

/**
 * A job this instance has just claimed: one attempt of it, named by {@code (id, lease)}.
 *
 * @param attempt this attempt's number (1 for the first)
 * @param lease   the job's {@code run_lease} after this claim; every write about this attempt must match it
 * @param checkpointJson the checkpoint an earlier attempt recorded with its progress (JSON), or null
 * @param dueMs   how long the job had been due (since its {@code run_at}) when it was claimed, on the database's
 *                clock, in ms; the first part of its pickup latency
 * @param key     the job's place in claim order when it was claimed
 */
public record ClaimedJob(long id, String kind, String queue, String argsJson, int attempt, int maxAttempts, long lease,
        int priority, String checkpointJson, long dueMs, ClaimKey key) {

    /** A claimed job with no checkpoint, claimed the moment it became due. */
    public ClaimedJob(long id, String kind, String queue, String argsJson, int attempt, int maxAttempts, long lease,
            int priority) {
        this(id, kind, queue, argsJson, attempt, maxAttempts, lease, priority, null, 0,
                new ClaimKey(priority, 0, id));
    }

    public boolean lastAttempt() {
        return attempt >= maxAttempts;
    }
}
