package dev.weir.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Every setting Weir runs with, read and validated once by {@link SettingsReader}; every other class receives
 * this record (or one of its parts) instead of reading configuration itself.
 *
 * @param queues            the queues in the order {@code weir.queues} names them
 * @param globalMaxWorkers  set: weighted mode with this budget per instance; empty: hard-reserved mode
 * @param heartbeatInterval how often an instance proves it is alive
 * @param rescueAfter       an instance silent this long has its running jobs rescued
 * @param shutdownTimeout   drain time on stop
 * @param diagnostics       whether the built-in diagnostic job kinds are registered
 * @param retention         how long finished jobs are kept
 * @param periodic          the periodic (cron) jobs, in name order
 * @param vacuum            when the leader vacuums Weir's tables
 */
public record WeirSettings(
        List<QueueSettings> queues,
        OptionalInt globalMaxWorkers,
        Duration heartbeatInterval,
        Duration rescueAfter,
        Duration shutdownTimeout,
        boolean diagnostics,
        Retention retention,
        List<Periodic> periodic,
        Vacuum vacuum) {

    public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(10);
    public static final Duration DEFAULT_RESCUE_AFTER = Duration.ofSeconds(60);
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    public WeirSettings {
        queues = List.copyOf(queues);
        periodic = List.copyOf(periodic);
    }

    /** Settings with the default {@link Retention} and {@link Vacuum}, and no periodic jobs. */
    public WeirSettings(List<QueueSettings> queues, OptionalInt globalMaxWorkers, Duration heartbeatInterval,
            Duration rescueAfter, Duration shutdownTimeout, boolean diagnostics) {
        this(queues, globalMaxWorkers, heartbeatInterval, rescueAfter, shutdownTimeout, diagnostics,
                Retention.defaults(), List.of(), Vacuum.defaults());
    }

    public WeirSettings withRetention(Retention newRetention) {
        return new WeirSettings(queues, globalMaxWorkers, heartbeatInterval, rescueAfter, shutdownTimeout, diagnostics,
                newRetention, periodic, vacuum);
    }

    public WeirSettings withPeriodic(List<Periodic> newPeriodic) {
        return new WeirSettings(queues, globalMaxWorkers, heartbeatInterval, rescueAfter, shutdownTimeout, diagnostics,
                retention, newPeriodic, vacuum);
    }

    public WeirSettings withVacuum(Vacuum newVacuum) {
        return new WeirSettings(queues, globalMaxWorkers, heartbeatInterval, rescueAfter, shutdownTimeout, diagnostics,
                retention, periodic, newVacuum);
    }

    public boolean weighted() {
        return globalMaxWorkers.isPresent();
    }

    public Optional<QueueSettings> queue(String name) {
        // A loop, not a stream: this runs for every job submitted (a stream was about 4 % of a batch submission's CPU).
        for (int i = 0; i < queues.size(); i++) {
            if (queues.get(i).name().equals(name)) {
                return Optional.of(queues.get(i));
            }
        }
        return Optional.empty();
    }
}
