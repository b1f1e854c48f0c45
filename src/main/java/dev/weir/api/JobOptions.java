package dev.weir.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How to submit a job: its queue, priority, when it may run, and how many attempts it gets. Immutable; every
 * {@code with…} method returns a copy.
 * <pre>{@code
 * JobOptions.defaults().queue("emails").priority(1).delay(Duration.ofMinutes(5))
 * }</pre>
 *
 * @param queue       the queue's name; {@code default} unless set
 * @param priority    1 (highest) to 4; 2 unless set
 * @param runAt       the earliest time the job may run; {@code null} means now
 * @param maxAttempts attempts before the job is discarded, at least 1; 25 unless set
 * @param unique      when set, a duplicate submission returns the existing job instead ({@link Unique})
 */
public record JobOptions(String queue, int priority, Instant runAt, int maxAttempts, Unique unique) {

    public static final String DEFAULT_QUEUE = "default";
    public static final int HIGHEST_PRIORITY = 1;
    public static final int LOWEST_PRIORITY = 4;
    public static final int DEFAULT_PRIORITY = 2;
    public static final int DEFAULT_MAX_ATTEMPTS = 25;

    private static final JobOptions DEFAULTS = new JobOptions(DEFAULT_QUEUE, DEFAULT_PRIORITY, null, DEFAULT_MAX_ATTEMPTS,
            null);

    public JobOptions {
        Objects.requireNonNull(queue, "queue");
        if (priority < HIGHEST_PRIORITY || priority > LOWEST_PRIORITY) {
            throw new InvalidJobException("invalid_priority",
                    "priority must be between " + HIGHEST_PRIORITY + " and " + LOWEST_PRIORITY + ", was " + priority);
        }
        if (maxAttempts < 1) {
            throw new InvalidJobException("invalid_max_attempts", "maxAttempts must be at least 1, was " + maxAttempts);
        }
    }

    /** Options without uniqueness. */
    public JobOptions(String queue, int priority, Instant runAt, int maxAttempts) {
        this(queue, priority, runAt, maxAttempts, null);
    }

    public static JobOptions defaults() {
        return DEFAULTS;
    }

    public JobOptions queue(String queue) {
        return new JobOptions(queue, priority, runAt, maxAttempts, unique);
    }

    public JobOptions priority(int priority) {
        return new JobOptions(queue, priority, runAt, maxAttempts, unique);
    }

    public JobOptions runAt(Instant runAt) {
        return new JobOptions(queue, priority, runAt, maxAttempts, unique);
    }

    /** Runs the job no earlier than {@code delay} from now. */
    public JobOptions delay(Duration delay) {
        if (delay.isNegative()) {
            throw new InvalidJobException("invalid_delay", "delay must not be negative: " + delay);
        }
        return runAt(Instant.now().plus(delay));
    }

    public JobOptions unique(Unique unique) {
        return new JobOptions(queue, priority, runAt, maxAttempts, unique);
    }

    public JobOptions maxAttempts(int maxAttempts) {
        return new JobOptions(queue, priority, runAt, maxAttempts, unique);
    }
}
