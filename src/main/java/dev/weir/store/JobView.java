package dev.weir.store;

import java.time.Instant;

/**
 * A job as the REST API shows it; {@code errorsJson} is the stored error history, a JSON array; {@code progressJson}
 * the last progress its handler recorded ({@code {"percent", "message", "checkpoint", "at"}}), or null;
 * {@code cancelRequested} whether an operator asked to cancel it (ADR 0021).
 */
public record JobView(long id, String kind, String queue, JobState state, int attempt, int maxAttempts, int priority,
        Instant runAt, Instant createdAt, Instant attemptedAt, Instant finalizedAt, String errorsJson, String argsJson,
        String progressJson, boolean cancelRequested) {
}
