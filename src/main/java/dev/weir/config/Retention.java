package dev.weir.config;

import java.time.Duration;
import java.util.Optional;

/**
 * How long finished jobs stay in {@code weir.jobs} before the leader deletes them, per terminal state; empty keeps
 * them for ever ({@code never}).
 *
 * @param completed jobs that completed ({@code weir.retention.completed}, default one day)
 * @param cancelled jobs that were cancelled ({@code weir.retention.cancelled}, default seven days)
 * @param discarded jobs that were discarded ({@code weir.retention.discarded}, default seven days): kept longer by
 *                  default, since their errors are what an operator comes to read
 */
public record Retention(Optional<Duration> completed, Optional<Duration> cancelled, Optional<Duration> discarded) {

    public static final Duration DEFAULT_COMPLETED = Duration.ofDays(1);
    public static final Duration DEFAULT_CANCELLED = Duration.ofDays(7);
    public static final Duration DEFAULT_DISCARDED = Duration.ofDays(7);

    public static Retention defaults() {
        return new Retention(Optional.of(DEFAULT_COMPLETED), Optional.of(DEFAULT_CANCELLED),
                Optional.of(DEFAULT_DISCARDED));
    }

    /** Keeps every finished job. */
    public static Retention forever() {
        return new Retention(Optional.empty(), Optional.empty(), Optional.empty());
    }
}
