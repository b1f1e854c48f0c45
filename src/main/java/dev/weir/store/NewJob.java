package dev.weir.store;

import java.time.Instant;

/**
 * A validated job about to be inserted.
 *
 * @param argsJson a JSON object (already checked to be one)
 * @param runAt    null for now
 */
public record NewJob(String kind, String queue, String argsJson, int priority, int maxAttempts, Instant runAt) {
}
