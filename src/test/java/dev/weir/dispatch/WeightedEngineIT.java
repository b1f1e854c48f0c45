package dev.weir.dispatch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.api.JobHandler;
import dev.weir.api.Outcome;
import dev.weir.concurrency.CapacityReport;
import dev.weir.config.QueueSettings;
import dev.weir.config.WeirSettings;
import dev.weir.diagnostics.DiagnosticHandlers;
import dev.weir.store.JobStore;
import dev.weir.store.NewJob;
import dev.weir.testing.JdbcTransactor;
import dev.weir.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Weighted mode and rate limits: the whole engine against a real PostgreSQL (DESIGN §3). */
@ExtendWith(TestDatabase.class)
class WeightedEngineIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private final JdbcTransactor tx = new JdbcTransactor(TestDatabase.dataSource());
    private final List<Engine> engines = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (Engine e : engines) {
            e.drain(Duration.ofSeconds(1));
        }
    }

    private static WeirSettings weighted(int global, QueueSettings... queues) {
        return new WeirSettings(List.of(queues), OptionalInt.of(global), Duration.ofMillis(300), Duration.ofMillis(1500),
                Duration.ofSeconds(5), false);
    }

    private static QueueSettings queue(String name, int minWorkers, int weight) {
        return new QueueSettings(name, 50, minWorkers, weight, java.util.OptionalDouble.empty(), OptionalInt.empty(),
                OptionalInt.empty(), Duration.ofMinutes(5), Duration.ofMillis(200));
    }

    private Engine start(WeirSettings settings, JobHandler<?>... handlers) {
        Engine e = TestEngine.start(settings, List.of(handlers));
        engines.add(e);
        return e;
    }

    private void flood(String queue, String kind, String args, int n) {
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(new NewJob(kind, queue, args, 2, 25, null));
        }
        tx.inNewTransaction(sql -> JobStore.insert(sql, jobs));
    }

    private Map<String, Long> runningByQueue() {
        Map<String, Long> running = new HashMap<>();
        try (Connection c = TestDatabase.dataSource().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT queue, count(*) FROM weir.jobs WHERE state = 'running' GROUP BY queue")) {
            while (rs.next()) {
                running.put(rs.getString(1), rs.getLong(2));
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        return running;
    }

    private long outstanding() {
        return runningByQueue().values().stream().mapToLong(Long::longValue).sum() + count(
                "state IN ('available', 'retryable', 'scheduled')");
    }

    private static long count(String where) {
        return TestDatabase.countJobs(where);
    }

    @Test
    void idleQueuesDoNotShrinkABusyQueuesShare() {
        start(weighted(12, queue("busy", 0, 1), queue("idle-1", 0, 1), queue("idle-2", 0, 1), queue("idle-3", 0, 1),
                queue("idle-4", 0, 1), queue("idle-5", 0, 1)), new DiagnosticHandlers.Sleep());
        flood("busy", "weir.sleep", "{\"ms\":100}", 600);
        // Five idle queues poll every 200 ms. Were each poll a request to the pool, the six queues would split it
        // 2 each; an idle queue that asks nothing leaves the busy one the whole pool.
        long deadline = System.nanoTime() + Duration.ofSeconds(4).toNanos();
        long settle = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        long sum = 0;
        int samples = 0;
        while (System.nanoTime() < deadline) {
            long running = runningByQueue().getOrDefault("busy", 0L);
            if (System.nanoTime() > settle) {
                sum += running;
                samples++;
            }
        }
        double mean = (double) sum / samples;
        assertTrue(mean >= 9, "the busy queue ran " + mean + " jobs at a time on average, of 12");
    }

    @Test
    void contendingQueuesSplitTheBudgetByWeightAndNeverExceedIt() {
        start(weighted(12, queue("light", 0, 1), queue("heavy", 0, 3)), new DiagnosticHandlers.Sleep());
        flood("light", "weir.sleep", "{\"ms\":150}", 400);
        flood("heavy", "weir.sleep", "{\"ms\":150}", 400);
        long light = 0;
        long heavy = 0;
        int samples = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(6).toNanos();
        long settle = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, Long> running = runningByQueue();
            long total = running.values().stream().mapToLong(Long::longValue).sum();
            assertTrue(total <= 12, "running " + running + " exceeds the global budget of 12");
            if (System.nanoTime() > settle) {
                light += running.getOrDefault("light", 0L);
                heavy += running.getOrDefault("heavy", 0L);
                samples++;
            }
        }
        double lightAvg = (double) light / samples;
        double heavyAvg = (double) heavy / samples;
        assertTrue(Math.abs(lightAvg - 3) <= 1.0 && Math.abs(heavyAvg - 9) <= 1.5,
                "expected about 3:9, got " + lightAvg + ":" + heavyAvg + " over " + samples + " samples");
    }

    @Test
    void aQueueThatRunsOutOfJobsStopsContendingAtOnce() {
        // Polls 30 s apart: only the wake-ups for freed capacity can make the queues look again in time.
        QueueSettings shortQueue = new QueueSettings("short", 50, 0, 1, java.util.OptionalDouble.empty(),
                OptionalInt.empty(), OptionalInt.empty(), Duration.ofMinutes(5), Duration.ofSeconds(30));
        QueueSettings longQueue = new QueueSettings("long", 50, 0, 1, java.util.OptionalDouble.empty(),
                OptionalInt.empty(), OptionalInt.empty(), Duration.ofMinutes(5), Duration.ofSeconds(30));
        flood("short", "weir.sleep", "{\"ms\":50}", 200);
        Engine engine = start(weighted(8, shortQueue, longQueue), new DiagnosticHandlers.Sleep());
        // Alone, short takes the whole pool; once long asks too, short's renewals shrink it to its share.
        await().atMost(WAIT).until(() -> runningByQueue().getOrDefault("short", 0L) == 8);
        flood("long", "weir.sleep", "{\"ms\":100}", 2000);
        engine.announce(List.of("long"));
        await().atMost(WAIT).until(() -> count("queue = 'short' AND state = 'completed'") == 200);
        // Short, rung as its permits came back, found nothing and stopped contending: long, alone now, gets the whole
        // pool without waiting for either queue's next poll.
        await().atMost(Duration.ofSeconds(5)).until(() -> runningByQueue().getOrDefault("long", 0L) == 8);
    }

    @Test
    void aQueueAloneUsesTheWholeBudget() {
        Engine engine = start(weighted(12, queue("alone", 0, 1), queue("idle", 0, 5)), new DiagnosticHandlers.Sleep());
        flood("alone", "weir.sleep", "{\"ms\":300}", 200);
        await().atMost(WAIT).until(() -> runningByQueue().getOrDefault("alone", 0L) == 12);
        CapacityReport.Weighted report = (CapacityReport.Weighted) engine.capacities().get("alone").report();
        assertEquals(12, report.overflowHeld());
        assertEquals(1, report.weight());
    }

    @Test
    void aQueueKeepsItsMinimumWhateverTheOthersDo() {
        start(weighted(12, queue("small", 4, 1), queue("greedy", 0, 100)), new DiagnosticHandlers.Sleep());
        flood("greedy", "weir.sleep", "{\"ms\":150}", 600);
        await().atMost(WAIT).until(() -> runningByQueue().getOrDefault("greedy", 0L) >= 8);
        flood("small", "weir.sleep", "{\"ms\":150}", 100);
        await().atMost(WAIT).until(() -> runningByQueue().getOrDefault("small", 0L) >= 4);
        for (int i = 0; i < 50; i++) {
            Map<String, Long> running = runningByQueue();
            assertTrue(running.values().stream().mapToLong(Long::longValue).sum() <= 12, running.toString());
        }
    }

    @Test
    void everyPermitIsBackAfterFailuresAndErrors() {
        JobHandler<TestArgs> broken = EngineIT.handler(EngineIT.THROWS_ERROR, job -> {
            if (job.args().n() % 2 == 0) {
                throw new AssertionError("an Error from the handler");
            }
            return Outcome.fail("plain failure");
        });
        Engine engine = start(weighted(6, queue("a", 1, 1), queue("b", 2, 2)), broken, new DiagnosticHandlers.Noop());
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String q = i % 2 == 0 ? "a" : "b";
            jobs.add(new NewJob(i % 3 == 0 ? "weir.noop" : EngineIT.THROWS_ERROR.name(), q, "{\"n\":" + i + "}", 2, 1,
                    null));
        }
        tx.inNewTransaction(sql -> JobStore.insert(sql, jobs));
        await().atMost(WAIT).until(() -> outstanding() == 0);
        await().atMost(WAIT).until(() -> engine.capacities().values().stream().allMatch(c -> c.inFlight() == 0));
        for (String q : new String[] {"a", "b"}) {
            assertEquals(0, ((CapacityReport.Weighted) engine.capacities().get(q).report()).overflowHeld());
        }
    }

    @Test
    void aRateLimitedQueueStartsNoMoreThanItsRate() {
        QueueSettings limited = new QueueSettings("limited", 50, 0, 1, java.util.OptionalDouble.of(20),
                OptionalInt.of(5), OptionalInt.empty(), Duration.ofMinutes(5), Duration.ofMillis(200));
        Engine engine = TestEngine.start(TestEngine.settings(limited), List.of(new DiagnosticHandlers.Noop()));
        engines.add(engine);
        long began = System.nanoTime();
        flood("limited", "weir.noop", "{}", 100);
        await().atMost(WAIT).until(() -> count("state = 'completed'") == 100);
        double seconds = (System.nanoTime() - began) / 1e9;
        // 5 at once from the burst, then 95 at 20 per second: about 4.75 s.
        assertTrue(seconds >= 4.0 && seconds < 9.0, "100 jobs at 20/s (burst 5) took " + seconds + " s");
    }
}
