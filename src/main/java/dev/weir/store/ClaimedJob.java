package dev.weir.store;

/**
 * A job this instance has just claimed: one attempt of it, named by {@code (id, lease)}.
 *
 * @param attempt this attempt's number (1 for the first)
 * @param lease   the job's {@code run_lease} after this claim; every write about this attempt must match it
 */
public record ClaimedJob(long id, String kind, String queue, String argsJson, int attempt, int maxAttempts, long lease,
        int priority) {

    public boolean lastAttempt() {
        return attempt >= maxAttempts;
    }
}
