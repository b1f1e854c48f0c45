package dev.weir.config;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * One queue's settings, validated by {@link SettingsReader}.
 *
 * @param name         matches {@code [a-z][a-z0-9-]{0,62}}
 * @param maxWorkers   hard-reserved mode: permits this queue owns on each instance
 * @param minWorkers   weighted mode: permits guaranteed to this queue on each instance
 * @param weight       weighted mode: this queue's share of the overflow
 * @param rateLimit    jobs started per second per instance, when set
 * @param rateBurst    token-bucket size; {@code ceil(rateLimit)} unless set
 * @param maxPending   elastic admission bound on outstanding jobs, when set
 * @param deadline     an attempt running longer is stopped and rescued
 * @param pollInterval the fallback poll when no notification arrives
 * @param priorityAging when set, an available job moves up one priority level for every such period it waits
 */
public record QueueSettings(
        String name,
        int maxWorkers,
        int minWorkers,
        int weight,
        OptionalDouble rateLimit,
        OptionalInt rateBurst,
        OptionalInt maxPending,
        Duration deadline,
        Duration pollInterval,
        Optional<Duration> priorityAging) {

    public static final int DEFAULT_MAX_WORKERS = 100;
    public static final int DEFAULT_MIN_WORKERS = 0;
    public static final int DEFAULT_WEIGHT = 1;
    public static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(5);
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

    /** Settings without priority aging (strict priority order). */
    public QueueSettings(String name, int maxWorkers, int minWorkers, int weight, OptionalDouble rateLimit,
            OptionalInt rateBurst, OptionalInt maxPending, Duration deadline, Duration pollInterval) {
        this(name, maxWorkers, minWorkers, weight, rateLimit, rateBurst, maxPending, deadline, pollInterval,
                Optional.empty());
    }

    /** A queue with every default, as {@code weir.queues=<name>} alone gives. */
    public static QueueSettings defaults(String name) {
        return new QueueSettings(name, DEFAULT_MAX_WORKERS, DEFAULT_MIN_WORKERS, DEFAULT_WEIGHT, OptionalDouble.empty(),
                OptionalInt.empty(), OptionalInt.empty(), DEFAULT_DEADLINE, DEFAULT_POLL_INTERVAL);
    }

    public QueueSettings withMaxWorkers(int maxWorkers) {
        return new QueueSettings(name, maxWorkers, minWorkers, weight, rateLimit, rateBurst, maxPending, deadline,
                pollInterval, priorityAging);
    }

    public QueueSettings withDeadline(Duration deadline) {
        return new QueueSettings(name, maxWorkers, minWorkers, weight, rateLimit, rateBurst, maxPending, deadline,
                pollInterval, priorityAging);
    }

    public QueueSettings withPriorityAging(Duration aging) {
        return new QueueSettings(name, maxWorkers, minWorkers, weight, rateLimit, rateBurst, maxPending, deadline,
                pollInterval, Optional.of(aging));
    }

    public QueueSettings withPollInterval(Duration pollInterval) {
        return new QueueSettings(name, maxWorkers, minWorkers, weight, rateLimit, rateBurst, maxPending, deadline,
                pollInterval, priorityAging);
    }
}
