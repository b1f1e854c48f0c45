package dev.weir.metrics;

import dev.weir.concurrency.CapacityReport;
import dev.weir.concurrency.QueueCapacity;
import dev.weir.store.AdmissionSlots;
import dev.weir.store.JobStore;
import dev.weir.store.Transactor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * Weir's metrics in the application registry of MicroProfile Metrics, served in Prometheus text format on
 * {@code /metrics} (names and meaning in the README, "Operating Weir → Metrics"; ADR 0022).
 *
 * <p>The counters and timers of a (queue, kind) pair are looked up in the registry once and kept in a map, so a job
 * costs a hash look-up and the updates themselves. At most {@link #MAX_SERIES} pairs get their own series: kinds are
 * free text from submitters, and a client that invents kinds must not grow the registry without bound; pairs beyond
 * that are counted under the kind {@value #OTHER_KIND}.
 *
 * <p>Gauges read the engine's capacities at each scrape (no database) and the database at most every
 * {@link #DATABASE_EVERY}, whatever the scrape rate.
 */
@ApplicationScoped
public class MicroProfileMetrics implements WeirMetrics {

    static final int MAX_SERIES = 1000;
    static final String OTHER_KIND = "_other";
    static final Duration DATABASE_EVERY = Duration.ofSeconds(5);

    @Inject
    MetricRegistry registry;

    /** The series of one (queue, kind) pair. */
    private record Series(Counter submitted, Counter completed, Counter failed, Counter retried, Counter snoozed,
            Counter discarded, Counter cancelled, Counter rescued, Timer pickup, Timer run) {
    }

    private record Key(String queue, String kind) {
    }

    private final Map<Key, Series> series = new ConcurrentHashMap<>();
    private final Map<String, Counter> refused = new ConcurrentHashMap<>();
    private final Map<String, Counter> rateLimited = new ConcurrentHashMap<>();
    private final Set<String> watched = ConcurrentHashMap.newKeySet();

    @Override
    public void submitted(String queue, String kind, int jobs) {
        series(queue, kind).submitted().inc(jobs);
    }

    @Override
    public void started(String queue, String kind, boolean retry, long pickupNanos) {
        Series s = series(queue, kind);
        if (retry) {
            s.retried().inc();
        }
        s.pickup().update(Duration.ofNanos(Math.max(0, pickupNanos)));
    }

    @Override
    public void ended(String queue, String kind, JobEvent event, long runNanos) {
        Series s = series(queue, kind);
        Counter c = switch (event) {
            case COMPLETED -> s.completed();
            case FAILED -> s.failed();
            case SNOOZED -> s.snoozed();
            case DISCARDED -> s.discarded();
            case CANCELLED -> s.cancelled();
            default -> null;
        };
        if (c != null) {
            c.inc();
        }
        if (runNanos >= 0) {
            s.run().update(Duration.ofNanos(runNanos));
        }
    }

    @Override
    public void rescued(String queue, String kind, boolean discarded) {
        Series s = series(queue, kind);
        s.rescued().inc();
        if (discarded) {
            s.discarded().inc();
        }
    }

    @Override
    public void refused(String queue) {
        refused.computeIfAbsent(queue, q -> registry.counter(meta("weir_admission_refused",
                "Submissions to a bounded queue refused because they did not fit (max-pending), on this instance"),
                new Tag("queue", q))).inc();
    }

    @Override
    public void rateLimited(String queue) {
        rateLimited.computeIfAbsent(queue, q -> registry.counter(meta("weir_rate_limited_polls",
                "Claims (polls and renewals) the rate limit cut short or prevented, on this instance"),
                new Tag("queue", q))).inc();
    }

    private Series series(String queue, String kind) {
        Key key = new Key(queue, kind);
        Series s = series.get(key);
        if (s != null) {
            return s;
        }
        if (series.size() >= MAX_SERIES) {
            key = new Key(queue, OTHER_KIND);
        }
        return series.computeIfAbsent(key, this::register);
    }

    private Series register(Key key) {
        Tag[] tags = {new Tag("queue", key.queue()), new Tag("kind", key.kind())};
        return new Series(
                counter("weir_jobs_submitted", "Jobs submitted and committed", tags),
                counter("weir_jobs_completed", "Attempts that completed their job", tags),
                counter("weir_jobs_failed", "Attempts that failed, with the job to be tried again", tags),
                counter("weir_jobs_retried", "Attempts started after an earlier attempt of the job was spent", tags),
                counter("weir_jobs_snoozed", "Attempts that snoozed their job (no attempt spent)", tags),
                counter("weir_jobs_discarded", "Jobs discarded (by their attempt's outcome or by a rescue)", tags),
                counter("weir_jobs_cancelled", "Attempts that cancelled their job", tags),
                counter("weir_jobs_rescued", "Attempts rescued by the leader (owner silent or far past deadline)", tags),
                registry.timer(meta("weir_job_pickup",
                        "From when a job became due (its run_at) to its handler's start"), tags),
                registry.timer(meta("weir_job_run", "How long handlers ran"), tags));
    }

    private Counter counter(String name, String description, Tag[] tags) {
        return registry.counter(meta(name, description), tags);
    }

    private static Metadata meta(String name, String description) {
        return Metadata.builder().withName(name).withDescription(description).build();
    }

    /**
     * Registers the gauges of the engine's queues: {@code capacities} read at each scrape, the database (available
     * jobs, and outstanding jobs of the bounded queues) at most every {@link #DATABASE_EVERY}.
     *
     * @param bounds bounded queue → max-pending
     */
    public void watch(Map<String, QueueCapacity> capacities, Map<String, Integer> bounds, Transactor transactor) {
        Throttled<Map<String, Long>> available = new Throttled<>(
                () -> transactor.inNewTransaction(JobStore::availableByQueue), DATABASE_EVERY, System::nanoTime);
        Throttled<Map<String, Long>> outstanding = new Throttled<>(
                () -> transactor.inNewTransaction(AdmissionSlots::outstanding), DATABASE_EVERY, System::nanoTime);
        capacities.forEach((queue, capacity) -> {
            if (!watched.add(queue)) {
                return;
            }
            Tag tag = new Tag("queue", queue);
            registry.gauge(meta("weir_queue_in_flight", "Attempts of the queue running on this instance (permits held)"),
                    capacity, c -> (long) c.inFlight(), tag);
            if (capacity.report() instanceof CapacityReport.Weighted) {
                registry.gauge(meta("weir_queue_overflow_held",
                        "Weighted mode: permits of the shared overflow pool the queue holds on this instance"),
                        capacity, c -> c.report() instanceof CapacityReport.Weighted w ? (long) w.overflowHeld() : 0L,
                        tag);
            }
            registry.gauge(meta("weir_queue_available",
                    "Jobs of the queue available now, across all instances (read at most every 5 s)"),
                    (Supplier<Double>) () -> count(available, queue), tag);
            if (bounds.containsKey(queue)) {
                registry.gauge(meta("weir_queue_outstanding",
                        "Bounded queue: unfinished jobs holding an admission slot, across all instances"
                                + " (read at most every 5 s)"),
                        (Supplier<Double>) () -> count(outstanding, queue), tag);
                registry.gauge(meta("weir_queue_max_pending", "Bounded queue: its max-pending"),
                        (Supplier<Long>) () -> (long) bounds.get(queue), tag);
            }
        });
    }

    /** A count from a throttled read; NaN while the database could never be read. */
    private static Double count(Throttled<Map<String, Long>> counts, String queue) {
        Map<String, Long> m = counts.get();
        return m == null ? Double.NaN : m.getOrDefault(queue, 0L).doubleValue();
    }
}
