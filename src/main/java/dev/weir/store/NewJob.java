package dev.weir.store;

import java.time.Instant;

/**
 * A validated job about to be inserted.
 *
 * @param argsJson a JSON object (already checked to be one)
 * @param runAt    null for now
 */
public record NewJob(String kind, String queue, String argsJson, int priority, int maxAttempts, Instant runAt,
        String uniqueKey, java.util.List<String> uniqueStates) {

    /** A job with no uniqueness. */
    public NewJob(String kind, String queue, String argsJson, int priority, int maxAttempts, Instant runAt) {
        this(kind, queue, argsJson, priority, maxAttempts, runAt, null, null);
    }

    public boolean unique() {
        return uniqueKey != null;
    }
}
