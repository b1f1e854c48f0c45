package dev.weir.dispatch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.api.JobKind;
import dev.weir.api.Outcome;
import dev.weir.config.QueueSettings;
import dev.weir.diagnostics.DiagnosticHandlers;
import dev.weir.metrics.JobEvent;
import dev.weir.metrics.WeirMetrics;
import dev.weir.store.JobStore;
import dev.weir.store.NewJob;
import dev.weir.testing.JdbcTransactor;
import dev.weir.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What the engine tells its metrics, with an in-memory {@link WeirMetrics}, against a real PostgreSQL. */
@ExtendWith(TestDatabase.class)
class MetricsEngineIT {

    static final JobKind<TestArgs> FAILS_ONCE = JobKind.of("test.metrics-fails-once", TestArgs.class);
    static final JobKind<TestArgs> SLOW = JobKind.of("test.metrics-slow", TestArgs.class);
    static final JobKind<TestArgs> CANCELS = JobKind.of("test.metrics-cancels", TestArgs.class);

    /** Counts per "event queue kind", pickups and runs as lists of nanoseconds. */
    static final class Recording implements WeirMetrics {
        final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
        final ConcurrentLinkedQueue<Long> pickups = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Long> runs = new ConcurrentLinkedQueue<>();

        void add(String key, int n) {
            counts.computeIfAbsent(key, k -> new AtomicInteger()).addAndGet(n);
        }

        int count(String key) {
            AtomicInteger c = counts.get(key);
            return c == null ? 0 : c.get();
        }

        @Override
        public void started(String queue, String kind, boolean retry, long pickupNanos) {
            add("started " + queue + " " + kind, 1);
            if (retry) {
                add("retried " + queue + " " + kind, 1);
            }
            pickups.add(pickupNanos);
        }

        @Override
        public void ended(String queue, String kind, JobEvent event, long runNanos) {
            add(event.label() + " " + queue + " " + kind, 1);
            if (runNanos >= 0) {
                runs.add(runNanos);
            }
        }

        @Override
        public void rateLimited(String queue) {
            add("rate-limited " + queue, 1);
        }
    }

    private final JdbcTransactor tx = new JdbcTransactor(TestDatabase.dataSource());
    private Engine engine;

    @AfterEach
    void stop() throws InterruptedException {
        if (engine != null) {
            engine.drain(Duration.ofSeconds(2));
        }
    }

    private void submit(String kind, int n, int maxAttempts, Instant runAt) {
        List<NewJob> jobs = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(new NewJob(kind, "default", "{\"n\":" + i + "}", 2, maxAttempts, runAt));
        }
        tx.inNewTransaction(sql -> JobStore.insert(sql, jobs));
    }

    @Test
    void outcomesAreCountedOnceCommittedWithTheirTimings() {
        Recording m = new Recording();
        engine = TestEngine.start(TestEngine.settings(TestEngine.queue("default", 8)), List.of(
                new DiagnosticHandlers.Noop(),
                EngineIT.handler(FAILS_ONCE, job -> job.attempt() == 1 ? Outcome.retryAfter(Duration.ZERO, "once")
                        : Outcome.complete()),
                EngineIT.handler(SLOW, job -> {
                    Thread.sleep(50);
                    return Outcome.complete();
                }),
                EngineIT.handler(CANCELS, job -> Outcome.cancel("no"))),
                Executors.newCachedThreadPool(TestEngine.DAEMONS), m);
        submit("weir.noop", 20, 25, null);
        submit(FAILS_ONCE.name(), 5, 25, null);
        submit(SLOW.name(), 3, 25, null);
        submit(CANCELS.name(), 2, 25, null);
        submit("test.metrics-no-handler", 4, 25, null);
        // Due a second ago: its pickup latency is at least that.
        submit(SLOW.name(), 1, 25, Instant.now().minusSeconds(1));
        await().atMost(Duration.ofSeconds(20)).until(() -> TestDatabase.countJobs(
                "state IN ('available', 'running', 'retryable', 'scheduled')") == 0);
        await().atMost(Duration.ofSeconds(5)).until(() -> m.count("completed default " + SLOW.name()) == 4);

        assertEquals(20, m.count("completed default weir.noop"));
        assertEquals(20, m.count("started default weir.noop"));
        assertEquals(5, m.count("failed default " + FAILS_ONCE.name()));
        assertEquals(5, m.count("completed default " + FAILS_ONCE.name()));
        assertEquals(5, m.count("retried default " + FAILS_ONCE.name()));
        assertEquals(0, m.count("retried default weir.noop"));
        assertEquals(2, m.count("cancelled default " + CANCELS.name()));
        // No handler: discarded without a handler start, so neither a pickup nor a run is recorded for them.
        assertEquals(4, m.count("discarded default test.metrics-no-handler"));
        assertEquals(0, m.count("started default test.metrics-no-handler"));
        assertEquals(20 + 10 + 4 + 2, m.pickups.size());
        assertEquals(20 + 10 + 4 + 2, m.runs.size());
        assertTrue(m.runs.stream().filter(n -> n >= 50_000_000L).count() >= 4, "the slow jobs ran 50 ms: " + m.runs);
        assertTrue(m.pickups.stream().anyMatch(n -> n >= 900_000_000L), "a job due a second ago: " + m.pickups);
        assertTrue(m.pickups.stream().allMatch(n -> n >= 0));
    }

    @Test
    void claimsCutByTheRateLimitAreCounted() {
        Recording m = new Recording();
        QueueSettings limited = new QueueSettings("default", 8, 0, 1, OptionalDouble.of(20), OptionalInt.of(1),
                OptionalInt.empty(), QueueSettings.DEFAULT_DEADLINE, Duration.ofMillis(200));
        engine = TestEngine.start(TestEngine.settings(limited),
                List.of(new DiagnosticHandlers.Noop()), Executors.newCachedThreadPool(TestEngine.DAEMONS), m);
        submit("weir.noop", 10, 25, null);
        await().atMost(Duration.ofSeconds(20)).until(() -> m.count("completed default weir.noop") == 10);
        assertTrue(m.count("rate-limited default") > 0, "a burst of 1 cuts the claims of 10 jobs: " + m.counts);
    }
}
