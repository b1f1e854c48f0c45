package dev.weir.api;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What a handler says about its attempt. Each outcome maps to one next state:
 *
 * <table>
 * <caption>Outcomes and the states they lead to</caption>
 * <tr><th>outcome</th><th>next state</th><th>attempt spent</th></tr>
 * <tr><td>{@link #complete()}, {@link #completeAndSubmit(List)}</td><td>{@code completed}</td><td>yes</td></tr>
 * <tr><td>{@link #fail(String)}</td><td>{@code retryable} after exponential back-off with jitter, or
 *     {@code discarded} when it was the last attempt</td><td>yes</td></tr>
 * <tr><td>{@link #retryAfter(Duration, String)}</td><td>{@code retryable} after the given delay, or
 *     {@code discarded} when it was the last attempt</td><td>yes</td></tr>
 * <tr><td>{@link #snooze(Duration)}</td><td>{@code scheduled} after the delay</td><td>no</td></tr>
 * <tr><td>{@link #discard(String)}</td><td>{@code discarded}</td><td>yes</td></tr>
 * <tr><td>{@link #cancel(String)}</td><td>{@code cancelled}</td><td>yes</td></tr>
 * </table>
 * Errors and reasons are appended to the job's error history.
 */
public sealed interface Outcome {

    /** Completion, with the jobs to submit in the transaction that records it (often none). */
    record Complete(List<JobRequest<?>> followUps) implements Outcome {
        public Complete {
            followUps = List.copyOf(followUps);
        }
    }

    record Fail(String error) implements Outcome {
        public Fail {
            Objects.requireNonNull(error, "error");
        }
    }

    record RetryAfter(Duration delay, String error) implements Outcome {
        public RetryAfter {
            requireNonNegative(delay);
            Objects.requireNonNull(error, "error");
        }
    }

    record Snooze(Duration delay) implements Outcome {
        public Snooze {
            requireNonNegative(delay);
        }
    }

    record Discard(String reason) implements Outcome {
        public Discard {
            Objects.requireNonNull(reason, "reason");
        }
    }

    record Cancel(String reason) implements Outcome {
        public Cancel {
            Objects.requireNonNull(reason, "reason");
        }
    }

    static Outcome complete() {
        return new Complete(List.of());
    }

    /**
     * Completes and submits {@code next} in the same transaction that records the completion: the jobs are stored
     * exactly when the completion is (not if the attempt was rescued or cancelled meanwhile, and not twice). An
     * invalid follow-up (unknown queue, arguments that do not encode) turns the outcome into a failure that says
     * why, and nothing is stored.
     */
    static Outcome completeAndSubmit(List<? extends JobRequest<?>> next) {
        return new Complete(List.copyOf(next));
    }

    static Outcome fail(String error) {
        return new Fail(error);
    }

    static Outcome retryAfter(Duration delay, String error) {
        return new RetryAfter(delay, error);
    }

    static Outcome snooze(Duration delay) {
        return new Snooze(delay);
    }

    static Outcome discard(String reason) {
        return new Discard(reason);
    }

    static Outcome cancel(String reason) {
        return new Cancel(reason);
    }

    private static void requireNonNegative(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative: " + delay);
        }
    }
}
