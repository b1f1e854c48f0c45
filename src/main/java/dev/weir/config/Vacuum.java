package dev.weir.config;

import java.time.Duration;

/**
 * When the maintenance leader vacuums Weir's own tables (ADR 0027).
 *
 * @param deadRows    vacuum a table once this many rows died in it since its last vacuum
 *                    ({@code weir.vacuum.dead-rows}); 0: never, leaving it all to autovacuum
 * @param minInterval the least time between two vacuums of one table, by anyone ({@code weir.vacuum.min-interval})
 */
public record Vacuum(long deadRows, Duration minInterval) {

    public static final long DEFAULT_DEAD_ROWS = 10_000;
    public static final Duration DEFAULT_MIN_INTERVAL = Duration.ofSeconds(5);

    public static Vacuum defaults() {
        return new Vacuum(DEFAULT_DEAD_ROWS, DEFAULT_MIN_INTERVAL);
    }

    public boolean enabled() {
        return deadRows > 0;
    }
}
