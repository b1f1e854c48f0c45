package dev.weir.concurrency;

import java.time.Duration;

/**
 * The arithmetic of a refusal's suggested retry-after (ADR 0011): how long until enough of a full queue's jobs have
 * finished for a refused submission to fit, at the queue's recent completion rate.
 *
 * <p>{@code retryAfter = clamp(ceil(deficit / finishesPerSecond), MIN, MAX)}, where the deficit is
 * {@code outstanding + requested − limit}. A queue that finished nothing recently gets {@link #MAX}: its workers are
 * stopped, paused or slow, and an early retry would only be refused again.
 */
public final class RetryAfter {

    /** The shortest suggestion: HTTP's {@code Retry-After} counts whole seconds, and a retry sooner would spin. */
    public static final Duration MIN = Duration.ofSeconds(1);
    /** The longest suggestion; the room may come back sooner than the rate promises. */
    public static final Duration MAX = Duration.ofSeconds(60);

    private RetryAfter() {
    }

    /** How many jobs must finish before {@code requested} more fit: at least 1 for a refusal. */
    public static long deficit(long outstanding, int requested, int limit) {
        return Math.max(1, outstanding + requested - limit);
    }

    /**
     * The suggestion for a refusal short of {@code deficit} slots, for a queue finishing {@code finishesPerSecond}
     * jobs a second (0 when it finished none recently).
     */
    public static Duration estimate(long deficit, double finishesPerSecond) {
        if (!(finishesPerSecond > 0)) {
            return MAX;
        }
        double seconds = Math.ceil(Math.max(1, deficit) / finishesPerSecond);
        if (seconds >= MAX.toSeconds()) {
            return MAX;
        }
        return Duration.ofSeconds(Math.max(MIN.toSeconds(), (long) seconds));
    }

    /** The value of an HTTP {@code Retry-After} header: whole seconds, rounded up, at least 1. */
    public static long headerSeconds(Duration retryAfter) {
        long seconds = retryAfter.toSeconds() + (retryAfter.toNanosPart() > 0 ? 1 : 0);
        return Math.max(1, seconds);
    }
}
