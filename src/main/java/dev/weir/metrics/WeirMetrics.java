package dev.weir.metrics;

/**
 * What Weir tells its metrics about jobs and queues. The engine and the submitter call it; the server passes
 * {@link MicroProfileMetrics}, container-free tests pass {@link #NONE} or a recording implementation of their own.
 *
 * <p>Calls come from the completer, dispatcher, maintenance and request threads, never while a lock of Weir's is
 * held; an implementation must be thread-safe and cheap (no registry look-up per job). Every method does nothing
 * by default.
 */
public interface WeirMetrics {

    /** Metrics that record nothing. */
    WeirMetrics NONE = new WeirMetrics() {
    };

    /** {@code jobs} jobs of {@code kind} were submitted to {@code queue} and committed. */
    default void submitted(String queue, String kind, int jobs) {
    }

    /**
     * An attempt's handler started: {@code pickupNanos} after the job became due (its {@code run_at}); {@code retry}
     * when an earlier attempt of the job was spent (attempt ≥ 2).
     */
    default void started(String queue, String kind, boolean retry, long pickupNanos) {
    }

    /**
     * An attempt's outcome was committed: {@code event} is {@link JobEvent#COMPLETED}, {@link JobEvent#FAILED},
     * {@link JobEvent#SNOOZED}, {@link JobEvent#DISCARDED} or {@link JobEvent#CANCELLED}; {@code runNanos} is how
     * long its handler ran, or -1 when no handler ran (unknown kind, undecodable arguments).
     */
    default void ended(String queue, String kind, JobEvent event, long runNanos) {
    }

    /** The leader rescued an attempt; {@code discarded} when that spent the job's last attempt. */
    default void rescued(String queue, String kind, boolean discarded) {
    }

    /** A submission to a bounded queue was refused (admission). */
    default void refused(String queue) {
    }

    /** A claim of {@code queue} (a poll or a renewal) got fewer permits than it could use because of the rate limit. */
    default void rateLimited(String queue) {
    }
}
