package dev.weir.dispatch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.api.JobContext;
import dev.weir.api.JobHandler;
import dev.weir.api.JobKind;
import dev.weir.api.JobRequest;
import dev.weir.api.Outcome;
import dev.weir.api.Progress;
import dev.weir.config.QueueSettings;
import dev.weir.config.Retention;
import dev.weir.config.Vacuum;
import dev.weir.config.WeirSettings;
import dev.weir.diagnostics.DiagnosticHandlers;
import dev.weir.store.JobState;
import dev.weir.store.JobStore;
import dev.weir.store.JobView;
import dev.weir.store.NewJob;
import dev.weir.testing.JdbcTransactor;
import dev.weir.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/** The whole engine — dispatchers, runner, completer, notifier, maintenance — against a real PostgreSQL. */
@ExtendWith(TestDatabase.class)
class EngineIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private final JdbcTransactor tx = new JdbcTransactor(TestDatabase.dataSource());
    private final List<Engine> engines = new ArrayList<>();

    static final JobKind<TestArgs> THROWS_ERROR = JobKind.of("test.error", TestArgs.class);
    static final JobKind<TestArgs> ALWAYS_FAILS = JobKind.of("test.always-fails", TestArgs.class);
    static final JobKind<TestArgs> SNOOZES_ONCE = JobKind.of("test.snoozes-once", TestArgs.class);
    static final JobKind<TestArgs> RECORDS = JobKind.of("test.records", TestArgs.class);

    static <A> JobHandler<A> handler(JobKind<A> kind, HandlerBody<A> body) {
        return new JobHandler<>() {
            @Override
            public JobKind<A> kind() {
                return kind;
            }

            @Override
            public Outcome handle(JobContext<A> job) throws Exception {
                return body.handle(job);
            }
        };
    }

    interface HandlerBody<A> {
        Outcome handle(JobContext<A> job) throws Exception;
    }

    private Engine start(List<JobHandler<?>> handlers, QueueSettings... queues) {
        return start(TestEngine.settings(queues), handlers);
    }

    /** Settings whose heartbeat (and what rides on it) comes only every 30 s: within 10 s, something else did it. */
    private static WeirSettings heartbeatsEvery30s(QueueSettings queue) {
        return new WeirSettings(List.of(queue), OptionalInt.empty(), Duration.ofSeconds(30), Duration.ofSeconds(120),
                Duration.ofSeconds(5), false);
    }

    private Engine start(WeirSettings settings, List<JobHandler<?>> handlers) {
        Engine e = TestEngine.start(settings, handlers);
        engines.add(e);
        return e;
    }

    @AfterEach
    void stopEngines() throws InterruptedException {
        for (Engine e : engines) {
            e.drain(Duration.ofSeconds(2));
        }
    }

    private long submit(String kind, String args, int maxAttempts) {
        return submit(kind, args, maxAttempts, 2);
    }

    private long submit(String kind, String args, int maxAttempts, int priority) {
        return tx.inNewTransaction(sql -> JobStore.insert(sql,
                List.of(new NewJob(kind, "default", args, priority, maxAttempts, null)))).get(0).id();
    }

    private JobView job(long id) {
        return tx.inNewTransaction(sql -> JobStore.get(sql, id)).orElseThrow();
    }

    private static long count(String where) {
        return TestDatabase.countJobs(where);
    }

    private static long manualVacuums() {
        return tableStat("vacuum_count");
    }

    private static long deadJobRows() {
        return tableStat("n_dead_tup");
    }

    private static long tableStat(String column) {
        try (java.sql.Connection c = TestDatabase.dataSource().getConnection();
                java.sql.Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("SELECT " + column
                        + " FROM pg_stat_user_tables WHERE schemaname = 'weir' AND relname = 'jobs'")) {
            rs.next();
            return rs.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void everyPermitComesBackWhateverTheHandlerDoes() {
        Engine engine = start(List.of(
                new DiagnosticHandlers.Noop(),
                handler(THROWS_ERROR, job -> {
                    // Errors a handler may raise itself; none may kill the dispatcher or keep a permit.
                    switch (job.args().n()) {
                        case 1: throw new StackOverflowError("handler blew its stack");
                        case 2: throw new OutOfMemoryError("handler asked for too much");
                        default: throw new AssertionError("handler broke an invariant");
                    }
                }),
                handler(ALWAYS_FAILS, job -> {
                    throw new IllegalStateException("nope");
                })), TestEngine.queue("default", 4));
        for (int i = 0; i < 60; i++) {
            submit("weir.noop", "{}", 1);
            submit(THROWS_ERROR.name(), "{\"n\":" + (i % 3 + 1) + "}", 1);
            submit(ALWAYS_FAILS.name(), "{\"n\":1}", 1);
            submit("no.such.kind", "{}", 1);
            submit(ALWAYS_FAILS.name(), "{\"n\":\"not a number\"}", 1);
        }
        await().atMost(WAIT).until(() -> count("state IN ('available', 'running', 'retryable', 'scheduled')") == 0);
        assertEquals(60, count("state = 'completed'"));
        assertEquals(240, count("state = 'discarded'"));
        await().atMost(WAIT).until(() -> engine.capacities().get("default").inFlight() == 0);
        assertTrue(engine.alive(), "no handler outcome kills a dispatcher");
    }

    @Test
    void unknownKindAndUndecodableArgsEndVisibly() {
        start(List.of(handler(RECORDS, job -> Outcome.complete())), TestEngine.queue("default", 2));
        long unknown = submit("no.such.kind", "{}", 25);
        long badArgs = submit(RECORDS.name(), "{\"n\":\"twelve\"}", 25);
        await().atMost(WAIT).until(() -> job(unknown).state() == JobState.DISCARDED
                && job(badArgs).state() == JobState.DISCARDED);
        assertTrue(job(unknown).errorsJson().contains("unknown kind 'no.such.kind'"), job(unknown).errorsJson());
        assertTrue(job(badArgs).errorsJson().contains("bad args"), job(badArgs).errorsJson());
        assertEquals(1, job(unknown).attempt());
    }

    @Test
    void failuresRetryWithBackoffThenDiscardWithTheirHistory() {
        AtomicInteger calls = new AtomicInteger();
        start(List.of(handler(ALWAYS_FAILS, job -> {
            calls.incrementAndGet();
            return Outcome.fail("failure number " + job.attempt());
        })), TestEngine.queue("default", 2));
        long id = submit(ALWAYS_FAILS.name(), "{\"n\":1}", 3);
        await().atMost(WAIT).until(() -> job(id).state() == JobState.RETRYABLE);
        await().atMost(WAIT).until(() -> job(id).state() == JobState.DISCARDED);
        JobView view = job(id);
        assertEquals(3, view.attempt());
        assertEquals(3, calls.get());
        for (int i = 1; i <= 3; i++) {
            assertTrue(view.errorsJson().contains("failure number " + i), view.errorsJson());
        }
    }

    @Test
    void snoozeRunsAgainWithoutSpendingAnAttempt() {
        start(List.of(handler(SNOOZES_ONCE, job -> job.attempt() == 1 && job.args().n() == 0
                ? Outcome.snooze(Duration.ofMillis(300)) : Outcome.complete())), TestEngine.queue("default", 2));
        long id = submit(SNOOZES_ONCE.name(), "{\"n\":0}", 25);
        // After a snooze the attempt is given back, so the next run is attempt 1 again: the handler snoozes again
        // and again — unless n changes. Check the first snooze instead.
        await().atMost(WAIT).until(() -> job(id).state() == JobState.SCHEDULED || job(id).attemptedAt() != null
                && job(id).state() == JobState.AVAILABLE);
        assertEquals(0, job(id).attempt(), "a snooze spends no attempt");
        assertEquals("[]", job(id).errorsJson().replace(" ", ""));
    }

    @Test
    void aDeadHeartbeatIsRescuedAndRunAgain() {
        long id = submit("weir.noop", "{}", 25);
        tx.inNewTransaction(sql -> {
            sql.update("INSERT INTO weir.instances (id, heartbeat_at) VALUES ('crashed', now() - interval '1 hour')");
            return JobStore.claim(sql, "default", 1, "crashed", 600_000);
        });
        assertEquals(JobState.RUNNING, job(id).state());
        start(List.of(new DiagnosticHandlers.Noop()), TestEngine.queue("default", 2));
        await().atMost(WAIT).until(() -> job(id).state() == JobState.COMPLETED);
        JobView view = job(id);
        assertEquals(2, view.attempt(), "the crashed attempt was spent");
        assertTrue(view.errorsJson().contains("instance crashed stopped sending heartbeats"), view.errorsJson());
    }

    @Test
    void theRescuerFirstGivesOtherInstancesRescueAfterToCheckIn() throws java.sql.SQLException {
        // After a database outage every heartbeat is old, the live instances' too: an instance that has just
        // (re)gained the database must not take them for dead before they could write a fresh one.
        long id = submit("weir.noop", "{}", 25);
        tx.inNewTransaction(sql -> {
            sql.update("INSERT INTO weir.instances (id, heartbeat_at) VALUES ('cut-off', now() - interval '1 hour')");
            return JobStore.claim(sql, "default", 1, "cut-off", 600_000);
        });
        Engine engine = start(List.of(new DiagnosticHandlers.Noop()), TestEngine.queue("default", 2));
        await().atMost(WAIT).until(() -> job(id).state() == JobState.COMPLETED);
        long waitedMs;
        try (java.sql.Connection c = TestDatabase.dataSource().getConnection();
                java.sql.PreparedStatement ps = c.prepareStatement("SELECT (extract(epoch FROM "
                        + "(j.errors->0->>'at')::timestamptz - i.started_at) * 1000)::bigint"
                        + " FROM weir.jobs j, weir.instances i WHERE j.id = ? AND i.id = ?")) {
            ps.setLong(1, id);
            ps.setString(2, engine.instance());
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "the engine's instance row and the job's rescue entry");
                waitedMs = rs.getLong(1);
            }
        }
        assertTrue(waitedMs >= TestEngine.settings(TestEngine.queue("default", 2)).rescueAfter().toMillis(),
                "rescued " + waitedMs + " ms after the rescuer started, before rescue-after");
    }

    @Test
    void anAttemptPastItsDeadlineIsStoppedAndItsPermitReturns() {
        AtomicBoolean sawCancel = new AtomicBoolean();
        JobKind<TestArgs> hang = JobKind.of("test.hang", TestArgs.class);
        Engine engine = start(List.of(handler(hang, job -> {
            try {
                while (!job.isCancelled()) {
                    Thread.sleep(20);
                }
            } catch (InterruptedException e) {
                // interrupted by the watchdog
            }
            sawCancel.set(job.isCancelled());
            return Outcome.complete();
        })), TestEngine.queue("default", 1).withDeadline(Duration.ofMillis(400)));
        long id = submit(hang.name(), "{\"n\":1}", 1);
        await().atMost(WAIT).until(() -> job(id).state() == JobState.DISCARDED);
        assertTrue(job(id).errorsJson().contains("deadline exceeded"), job(id).errorsJson());
        await().atMost(WAIT).until(sawCancel::get);
        await().atMost(WAIT).until(() -> engine.capacities().get("default").inFlight() == 0);
    }

    @Test
    void runningRowsNeverOutnumberPermits() throws Exception {
        // The jobs first: submitted one by one into a running engine, on a slow machine they could all be done before
        // the sampling below begins.
        for (int i = 0; i < 40; i++) {
            submit("weir.sleep", "{\"ms\":15}", 25);
        }
        start(List.of(new DiagnosticHandlers.Sleep()), TestEngine.queue("default", 3));
        long maxRunning = 0;
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (count("state <> 'completed'") > 0 && System.nanoTime() < deadline) {
            maxRunning = Math.max(maxRunning, count("state = 'running'"));
        }
        assertEquals(0, count("state <> 'completed'"));
        assertTrue(maxRunning <= 3, "running rows " + maxRunning + " > 3 permits");
        assertTrue(maxRunning >= 2, "the queue did use its permits in parallel: " + maxRunning);
    }

    @Test
    void aQueueWithMorePermitsThanOneLaneTakesRunsOnTwoLanesAndLosesNothing() throws Exception {
        int jobs = 3000;
        int permits = Engine.LANE_FILL * 2 + 20;
        List<NewJob> batch = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            batch.add(new NewJob("weir.sleep", "default", "{\"ms\":1}", 2, 25, null));
        }
        tx.inNewTransaction(sql -> JobStore.insert(sql, batch));
        Engine engine = start(List.of(new DiagnosticHandlers.Sleep()), TestEngine.queue("default", permits));
        // The lanes' loads are read in memory every 0.1 ms: sampled between the loop's database reads (a few
        // milliseconds each on a loaded machine), the moments both lanes carried attempts were missed once. Not a
        // busy spin, which would take a core from the engine it watches.
        AtomicBoolean bothLanes = new AtomicBoolean();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get() && !bothLanes.get()) {
                int[] loads = engine.laneLoads();
                if (loads[0] > 0 && loads[1] > 0) {
                    bothLanes.set(true);
                }
                LockSupport.parkNanos(100_000);
            }
        });
        sampler.start();
        long maxRunning = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        try {
            while (count("state <> 'completed'") > 0 && System.nanoTime() < deadline) {
                maxRunning = Math.max(maxRunning, count("state = 'running'"));
            }
        } finally {
            // A failing read must not leave the sampler running after the test.
            sampling.set(false);
            sampler.join();
        }
        assertEquals(0, count("state <> 'completed'"));
        assertEquals(jobs, count("state = 'completed' AND attempt = 1"), "each job ran once, none was lost or retried");
        assertTrue(maxRunning <= permits, "running rows " + maxRunning + " > " + permits + " permits");
        assertTrue(bothLanes.get(), "the second lane carried attempts while the first did");
        await().atMost(WAIT).until(() -> engine.capacities().get("default").inFlight() == 0);
        assertArrayEquals(new int[] {0, 0}, engine.laneLoads(), "every outcome came back to its lane");
    }

    @Test
    void aQueueOnlyOneLaneCarriesIsClaimedWholeWhateverTheOtherLaneCarries() {
        // "a" fills the first lane, "b" goes to the second (or the other way round, or shared): a queue is split
        // between lanes only while both carry its attempts, so neither queue runs one half of its jobs first.
        List<NewJob> batch = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            batch.add(new NewJob("weir.sleep", "a", "{\"ms\":5}", 2, 25, null));
        }
        for (int i = 0; i < 3000; i++) {
            batch.add(new NewJob("weir.sleep", "b", "{\"ms\":5}", 2, 25, null));
        }
        tx.inNewTransaction(sql -> JobStore.insert(sql, batch));
        start(List.of(new DiagnosticHandlers.Sleep()), TestEngine.queue("a", Engine.LANE_FILL),
                TestEngine.queue("b", 30));
        await().atMost(Duration.ofSeconds(60)).until(() -> count("state = 'completed'") == 4500);
        for (String queue : List.of("a", "b")) {
            // Of the first half of the queue's jobs to finish, how many have odd ids.
            long firstHalf = queue.equals("a") ? 750 : 1500;
            long odd = count("id IN (SELECT id FROM weir.jobs WHERE queue = '" + queue
                    + "' ORDER BY finalized_at, id LIMIT " + firstHalf + ") AND id % 2 = 1");
            assertTrue(odd > firstHalf / 4 && odd < firstHalf * 3 / 4, "queue " + queue + ": " + odd
                    + " odd ids among the first " + firstHalf + " jobs to finish");
        }
    }

    @Test
    void aQueueThatFitsOneLaneKeepsToIt() {
        int jobs = 400;
        List<NewJob> batch = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            batch.add(new NewJob("weir.sleep", "default", "{\"ms\":1}", 2, 25, null));
        }
        tx.inNewTransaction(sql -> JobStore.insert(sql, batch));
        Engine engine = start(List.of(new DiagnosticHandlers.Sleep()), TestEngine.queue("default", Engine.LANE_FILL));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        int secondLane = 0;
        while (count("state <> 'completed'") > 0 && System.nanoTime() < deadline) {
            secondLane = Math.max(secondLane, engine.laneLoads()[1]);
        }
        assertEquals(jobs, count("state = 'completed' AND attempt = 1"));
        assertEquals(0, secondLane, "a lane's batches as large as before lanes existed: the second lane stays shut");
    }

    @Test
    void theNextJobIsClaimedInTheTransactionThatRecordsTheLast() {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            ids.add(submit("weir.noop", "{}", 25));
        }
        // One permit, and the poll 30 s away: after the first claim, only renewal can keep the queue moving quickly.
        start(List.of(new DiagnosticHandlers.Noop()),
                TestEngine.queue("default", 1).withPollInterval(Duration.ofSeconds(30)));
        await().atMost(Duration.ofSeconds(10)).until(() -> count("state = 'completed'") == 6);
        for (int i = 1; i < ids.size(); i++) {
            JobView previous = job(ids.get(i - 1));
            JobView next = job(ids.get(i));
            // now() is the transaction's start: equal times mean one transaction ended one job and claimed the next.
            assertEquals(previous.finalizedAt(), next.attemptedAt(), "job " + next.id() + " was claimed when job "
                    + previous.id() + " was recorded");
        }
    }

    @Test
    void aPausedQueueRenewsNothing() throws InterruptedException {
        for (int i = 0; i < 40; i++) {
            submit("weir.sleep", "{\"ms\":20}", 25);
        }
        // The jobs are there before the first poll, which is the dispatcher's only poll within 30 s.
        Engine engine = start(List.of(new DiagnosticHandlers.Sleep()),
                TestEngine.queue("default", 2).withPollInterval(Duration.ofSeconds(30)));
        await().atMost(WAIT).until(() -> count("state = 'completed'") >= 4);
        tx.inNewTransaction(sql -> {
            JobStore.setPaused(sql, "default", true);
            return null;
        });
        // What runs when the pause commits finishes; nothing more starts, though permits keep coming back.
        await().atMost(WAIT).until(() -> count("state = 'running'") == 0
                && engine.capacities().get("default").inFlight() == 0);
        long done = count("state = 'completed'");
        Thread.sleep(300); // a negative claim: give a wrongly renewed job the time of several 20 ms runs
        assertEquals(done, count("state = 'completed'"));
        assertEquals(40 - done, count("state = 'available'"));
    }

    @Test
    void everyInstanceHearsAPauseAndAResumeWakesTheQueueAtOnce() throws InterruptedException {
        setPaused(true);
        // An instance that starts while the queue is paused reads the flag.
        Engine early = start(List.of(new DiagnosticHandlers.Noop()),
                TestEngine.queue("default", 2).withPollInterval(Duration.ofSeconds(30)));
        assertTrue(early.heardPaused("default"));
        setPaused(false);
        Engine late = start(List.of(new DiagnosticHandlers.Noop()),
                TestEngine.queue("default", 2).withPollInterval(Duration.ofSeconds(30)));
        await().atMost(WAIT).until(() -> early.listening() && late.listening() && !early.heardPaused("default"));
        assertFalse(late.heardPaused("default"));
        // One that was running hears it on the control channel.
        setPaused(true);
        await().atMost(WAIT).until(() -> early.heardPaused("default") && late.heardPaused("default"));
        long id = submit("weir.noop", "{}", 25);
        early.announce(List.of("default"));
        Thread.sleep(300); // a negative check: a paused queue claims nothing, woken or not
        assertEquals(JobState.AVAILABLE, job(id).state());
        // The polls are 30 s apart: only the resume's messages can make this quick.
        setPaused(false);
        await().atMost(Duration.ofSeconds(5)).until(() -> job(id).state() == JobState.COMPLETED);
        await().atMost(WAIT).until(() -> !early.heardPaused("default") && !late.heardPaused("default"));
    }

    @Test
    void aPauseOrResumeToldWhileTheNotifierWasAwayIsReadWhenItListensAgain() {
        Engine engine = start(List.of(new DiagnosticHandlers.Noop()),
                TestEngine.queue("default", 2).withPollInterval(Duration.ofSeconds(30)));
        await().atMost(WAIT).until(engine::listening);
        assertFalse(engine.heardPaused("default"));
        // Cut the notifier's session, then pause: the control message goes out while nobody of this instance
        // listens (the notifier waits at least 200 ms before it connects again), so only reading the flag again
        // when it listens again can tell this instance.
        cutListeners();
        setPaused(true);
        await().atMost(WAIT).until(() -> engine.heardPaused("default"));
        cutListeners();
        setPaused(false);
        await().atMost(WAIT).until(() -> !engine.heardPaused("default"));
    }

    /** Terminates every session of the test database that last ran a {@code LISTEN}: the notifiers'. */
    private void cutListeners() {
        long cut = tx.inNewTransaction(sql -> sql.query("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) "
                + "FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'")).stream()
                .mapToLong(row -> ((Number) row[0]).longValue()).sum();
        assertTrue(cut >= 1, "a notifier's session was cut");
    }

    private void setPaused(boolean paused) {
        tx.inNewTransaction(sql -> {
            JobStore.setPaused(sql, "default", paused);
            return null;
        });
    }

    @Test
    void theLeaderDeletesFinishedJobsPastTheirRetention() {
        for (int i = 0; i < 5; i++) {
            submit("weir.noop", "{}", 1);
            submit(ALWAYS_FAILS.name(), "{\"n\":1}", 1);
        }
        WeirSettings settings = TestEngine.settings(TestEngine.queue("default", 4))
                .withRetention(new Retention(Optional.of(Duration.ZERO), Optional.empty(), Optional.empty()));
        engines.add(TestEngine.start(settings, List.of(new DiagnosticHandlers.Noop(), handler(ALWAYS_FAILS, job -> {
            throw new IllegalStateException("nope");
        }))));
        await().atMost(WAIT).until(() -> count("state = 'discarded'") == 5);
        // Completed jobs go at the leader's next retention run; discarded ones are kept ("never").
        await().atMost(WAIT).until(() -> count("true") == 5);
        assertEquals(5, count("state = 'discarded'"));
    }

    @Test
    void theLeaderVacuumsTheJobsTableOnceEnoughRowsDied() {
        long vacuumsBefore = manualVacuums();
        WeirSettings settings = TestEngine.settings(TestEngine.queue("default", 8))
                .withVacuum(new Vacuum(300, Duration.ofMillis(200)));
        engines.add(TestEngine.start(settings, List.of(new DiagnosticHandlers.Noop())));
        for (int i = 0; i < 400; i++) {
            submit("weir.noop", "{}", 1);
        }
        await().atMost(WAIT).until(() -> count("state = 'completed'") == 400);
        // Each job left dead rows behind (claimed, then completed). Only a plain VACUUM counts in vacuum_count:
        // autovacuum has a count of its own.
        await().atMost(WAIT).until(() -> manualVacuums() > vacuumsBefore);
        await().atMost(WAIT).until(() -> deadJobRows() < 300);
    }

    @Test
    void theLeaderVacuumsTheJobsTableWhenItOnlyGrew() {
        // A paused queue: its jobs are only inserted, so no row dies. Without a vacuum (or an ANALYZE) nothing tells
        // PostgreSQL that the table grew, and a plan cached while it was empty keeps reading it whole (ADR 0027,
        // amendment "a table that only grows").
        setPaused(true);
        long vacuumsBefore = manualVacuums();
        WeirSettings settings = TestEngine.settings(TestEngine.queue("default", 8))
                .withVacuum(new Vacuum(300, Duration.ofMillis(200)));
        engines.add(TestEngine.start(settings, List.of(new DiagnosticHandlers.Noop())));
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            jobs.add(new NewJob("weir.noop", "default", "{}", 2, 1, null));
        }
        tx.inNewTransaction(sql -> JobStore.insert(sql, jobs));
        await().atMost(WAIT).until(() -> manualVacuums() > vacuumsBefore);
        assertEquals(1000, count("state = 'available'"), "nothing was claimed, nothing died");
        assertTrue(tableStat("n_live_tup") >= 1000, "the vacuum counted the rows");
    }

    @Test
    void agingLetsALowPriorityJobThroughASteadyHighPriorityLoad() throws Exception {
        start(List.of(new DiagnosticHandlers.Sleep(), new DiagnosticHandlers.Noop()),
                TestEngine.queue("strict", 1), TestEngine.queue("aging", 1).withPriorityAging(Duration.ofMillis(300)));
        AtomicBoolean feeding = new AtomicBoolean(true);
        Thread feeder = new Thread(() -> {
            // Keeps priority-1 jobs waiting in both queues at every moment: without aging, a priority-4 job never
            // reaches the head of either. At least 32 wait, 320 ms of work, so that a slow turn of this loop (each
            // look and insert opens a connection) cannot let a queue run dry: with 8 (80 ms) it did, once, on a
            // loaded machine, and the strict queue's low job ran.
            while (feeding.get()) {
                for (String queue : List.of("strict", "aging")) {
                    if (count("queue = '" + queue + "' AND state = 'available' AND priority = 1") < 32) {
                        insert(queue, "weir.sleep", "{\"ms\":10}", 1, 32);
                    }
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        feeder.start();
        try {
            await().atMost(WAIT).until(() -> count("state = 'completed' AND queue = 'aging'") >= 5
                    && count("state = 'completed' AND queue = 'strict'") >= 5);
            long strictLow = insert("strict", "weir.noop", "{}", 4, 1).get(0);
            long agingLow = insert("aging", "weir.noop", "{}", 4, 1).get(0);
            long started = System.nanoTime();
            await().atMost(Duration.ofSeconds(15)).until(() -> job(agingLow).state() == JobState.COMPLETED);
            long waitedMs = (System.nanoTime() - started) / 1_000_000;
            assertTrue(waitedMs >= 800, "it had to wait three periods to reach priority 1, not " + waitedMs + " ms");
            assertTrue(count("queue = 'aging' AND state = 'available' AND priority = 1") > 0
                    || count("queue = 'aging' AND state = 'running'") > 0, "the high-priority load was still there");
            assertEquals(JobState.AVAILABLE, job(strictLow).state(),
                    "without aging the same job in the same load is still waiting");
            assertEquals(4, job(strictLow).priority());
        } finally {
            feeding.set(false);
            feeder.join();
        }
    }

    private List<Long> insert(String queue, String kind, String args, int priority, int copies) {
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < copies; i++) {
            jobs.add(new NewJob(kind, queue, args, priority, 25, null));
        }
        return tx.inNewTransaction(sql -> JobStore.insert(sql, jobs)).stream().map(JobStore.Inserted::id).toList();
    }

    @Test
    void progressSurvivesARetryAndIsClearedOnCompletion() {
        List<String> seen = new CopyOnWriteArrayList<>();
        AtomicBoolean written = new AtomicBoolean();
        start(List.of(handler(RECORDS, job -> {
            seen.add(job.attempt() + ":" + job.checkpoint().orElse("none"));
            if (job.attempt() == 1) {
                written.set(job.progress(new Progress(40, "two of five ✓", "{\"done\":2}")));
                return Outcome.retryAfter(Duration.ofMillis(500), "stop half way");
            }
            return Outcome.complete();
        })), TestEngine.queue("default", 1));
        long id = submit(RECORDS.name(), "{\"n\":1}", 3);
        await().atMost(WAIT).until(() -> job(id).state() == JobState.RETRYABLE);
        assertTrue(written.get());
        String progress = job(id).progressJson();
        assertTrue(progress.contains("\"percent\": 40") && progress.contains("two of five ✓")
                && progress.contains("\"checkpoint\": {\"done\": 2}") && progress.contains("\"at\""), progress);
        await().atMost(WAIT).until(() -> job(id).state() == JobState.COMPLETED);
        assertEquals(List.of("1:none", "2:{\"done\": 2}"), seen, "the retry resumed from the checkpoint");
        assertEquals(null, job(id).progressJson(), "completion clears it");
    }

    @Test
    void periodicJobsFireOncePerScheduleTickWithTwoInstances() {
        WeirSettings settings = TestEngine.settings(TestEngine.queue("default", 2)).withPeriodic(List.of(
                new dev.weir.config.Periodic("every-second", dev.weir.cron.CronExpression.parse("* * * * * *"),
                        "weir.noop", "default", "{}", java.time.ZoneId.of("UTC"))));
        for (int i = 0; i < 2; i++) {
            engines.add(TestEngine.start(settings, List.of(new DiagnosticHandlers.Noop())));
        }
        await().atMost(WAIT).until(() -> count("kind = 'weir.noop' AND state = 'completed'") >= 4);
        // One job per second of fires, however many instances run: no two jobs were created in the same second.
        long jobs = count("kind = 'weir.noop'");
        long twins = count("kind = 'weir.noop' AND EXISTS (SELECT 1 FROM weir.jobs AS o WHERE o.kind = 'weir.noop' "
                + "AND o.id <> weir.jobs.id AND date_trunc('second', o.created_at) = date_trunc('second', "
                + "weir.jobs.created_at))");
        assertEquals(0, twins, "jobs fired twice in one second");
        assertTrue(jobs >= 4);
    }

    @Test
    void followUpJobsAreStoredWithTheCompletionOrNotAtAll() {
        start(List.of(new DiagnosticHandlers.Noop(), handler(RECORDS, job -> {
            if (job.args().n() == 1) {
                return Outcome.completeAndSubmit(List.of(
                        JobRequest.of(RECORDS, new TestArgs(2)),
                        JobRequest.of(JobKind.of("weir.noop", TestArgs.class), new TestArgs(0))));
            }
            if (job.args().n() == 3) {
                return Outcome.completeAndSubmit(List.of(JobRequest.of(RECORDS, new TestArgs(4),
                        dev.weir.api.JobOptions.defaults().queue("no-such-queue"))));
            }
            return Outcome.complete();
        })), TestEngine.queue("default", 2));
        long parent = submit(RECORDS.name(), "{\"n\":1}", 1);
        await().atMost(WAIT).until(() -> count("state = 'completed'") == 3);
        assertEquals(3, count("true"), "the parent and its two follow-ups, once each");
        assertEquals(1, count("kind = 'weir.noop' AND id > " + parent));

        long invalid = submit(RECORDS.name(), "{\"n\":3}", 1);
        await().atMost(WAIT).until(() -> job(invalid).state() == JobState.DISCARDED);
        assertTrue(job(invalid).errorsJson().contains("follow-up job 1 of 1") && job(invalid).errorsJson()
                .contains("no-such-queue"), job(invalid).errorsJson());
        assertEquals(4, count("true"), "nothing of the invalid completion was stored");
    }

    @Test
    void higherPriorityRunsFirst() {
        List<Integer> order = new CopyOnWriteArrayList<>();
        for (int p : new int[] {4, 2, 3, 1}) {
            submit(RECORDS.name(), "{\"n\":" + p + "}", 25, p);
        }
        start(List.of(handler(RECORDS, job -> {
            order.add(job.args().n());
            return Outcome.complete();
        })), TestEngine.queue("default", 1));
        await().atMost(WAIT).until(() -> order.size() == 4);
        assertEquals(List.of(1, 2, 3, 4), order);
    }

    /**
     * Claims under load start from where the last one ended (ADR 0024); an urgent job submitted meanwhile comes before
     * that point, and its announcement must send the next claim back to the head of the queue. The poll interval (and
     * so the cursor's age limit) is far away: only the announcement can make it quick.
     */
    @Test
    void anAnnouncedJobAheadOfTheClaimCursorIsClaimedBeforeTheBacklogEnds() {
        List<Integer> order = new CopyOnWriteArrayList<>();
        insert("default", RECORDS.name(), "{\"n\":3}", 3, 300);
        Engine engine = start(List.of(handler(RECORDS, job -> {
            order.add(job.args().n());
            Thread.sleep(3);
            return Outcome.complete();
        })), TestEngine.queue("default", 1).withPollInterval(Duration.ofSeconds(30)));
        await().atMost(WAIT).until(() -> engine.listening() && order.size() >= 20);
        insert("default", RECORDS.name(), "{\"n\":1}", 1, 1);
        tx.inNewTransaction(sql -> {
            JobStore.announce(sql, List.of("default"));
            return null;
        });
        await().atMost(WAIT).until(() -> order.contains(1));
        int at = order.indexOf(1);
        assertTrue(at < 250, "the urgent job ran as job " + at + " of 301: it waited for the backlog");
        await().atMost(WAIT).until(() -> order.size() == 301);
    }

    @Test
    void newJobsArePickedUpByNotificationNotThePoll() {
        Engine engine = start(List.of(new DiagnosticHandlers.Noop()),
                TestEngine.queue("default", 2).withPollInterval(Duration.ofSeconds(30)));
        await().atMost(WAIT).until(engine::listening);
        long id = submit("weir.noop", "{}", 25);
        tx.inNewTransaction(sql -> {
            JobStore.announce(sql, List.of("default"));
            return null;
        });
        // The poll fallback is 30 s away: only the NOTIFY can make this quick.
        await().atMost(Duration.ofSeconds(5)).until(() -> job(id).state() == JobState.COMPLETED);
    }

    @Test
    void anAnnouncementReachesOtherInstancesThroughTheBroadcaster() {
        Engine announcing = start(List.of(new DiagnosticHandlers.Noop()), TestEngine.queue("a", 1));
        Engine serving = start(List.of(new DiagnosticHandlers.Noop()),
                TestEngine.queue("b", 1).withPollInterval(Duration.ofSeconds(30)));
        // The serving instance's hello, sent as it started, tells the announcing one that somebody listens.
        await().atMost(WAIT).until(() -> serving.listening() && announcing.broadcasting());
        List<Long> ids = insert("b", "weir.noop", "{}", 2, 1);
        // The announcing instance has no dispatcher for b: only its NOTIFY can wake the other one before its poll.
        announcing.announce(List.of("b"));
        await().atMost(Duration.ofSeconds(5)).until(() -> job(ids.get(0)).state() == JobState.COMPLETED);
    }

    /**
     * An instance alone sends no announcement, since nobody would hear it (ADR 0040); another instance's start turns
     * its announcements on at once (the newcomer's hello, not the next heartbeat), and once that instance has stopped
     * a heartbeat turns them off again.
     */
    @Test
    void anInstanceAnnouncesToOthersOnlyWhileAnotherIsAlive() throws Exception {
        tx.inNewTransaction(sql -> sql.update("DELETE FROM weir.instances"));
        try (Connection listener = TestDatabase.dataSource().getConnection()) {
            try (Statement s = listener.createStatement()) {
                s.execute("LISTEN " + JobStore.CHANNEL);
            }
            try {
                Engine alone = start(List.of(new DiagnosticHandlers.Noop()), TestEngine.queue("a", 1));
                assertFalse(alone.broadcasting(), "its first heartbeat found no other instance");
                alone.announce(List.of("a"));
                assertEquals(List.of(""), notifications(listener, Duration.ofSeconds(1)),
                        "only its hello went out, not the announcement of a");
                Engine other = start(List.of(new DiagnosticHandlers.Noop()), TestEngine.queue("b", 1));
                // The hello or the next heartbeat (300 ms here) turns it on; the test below leaves the hello alone.
                await().atMost(WAIT).until(alone::broadcasting);
                alone.announce(List.of("a"));
                List<String> heard = new ArrayList<>();
                await().atMost(WAIT).until(() -> {
                    heard.addAll(notifications(listener, Duration.ofMillis(100)));
                    return heard.contains("a");
                });
                assertTrue(heard.contains(""), "the other instance said hello: " + heard);
                other.drain(Duration.ofSeconds(2));
                await().atMost(WAIT).until(() -> !alone.broadcasting());
                notifications(listener, Duration.ofMillis(500));
                alone.announce(List.of("a"));
                assertEquals(List.of(), notifications(listener, Duration.ofSeconds(1)),
                        "alone again, it announced nothing");
            } finally {
                try (Statement s = listener.createStatement()) {
                    s.execute("UNLISTEN *");
                }
            }
        }
    }

    /**
     * A starting instance's hello turns the announcements of one that believed itself alone on at once: with
     * heartbeats 30 s apart, nothing else could within 10 s.
     */
    @Test
    void aStartingInstancesHelloTurnsTheOthersAnnouncementsOn() {
        tx.inNewTransaction(sql -> sql.update("DELETE FROM weir.instances"));
        Engine alone = start(heartbeatsEvery30s(TestEngine.queue("a", 1)), List.of(new DiagnosticHandlers.Noop()));
        await().atMost(WAIT).until(alone::listening);
        assertFalse(alone.broadcasting(), "its first heartbeat found no other instance");
        start(List.of(new DiagnosticHandlers.Noop()), TestEngine.queue("b", 1));
        await().atMost(Duration.ofSeconds(10)).until(alone::broadcasting);
    }

    /** The payloads of the notifications {@code listener} receives within {@code within}. */
    private static List<String> notifications(Connection listener, Duration within) throws SQLException {
        PGConnection pg = listener.unwrap(PGConnection.class);
        List<String> payloads = new ArrayList<>();
        long end = System.nanoTime() + within.toNanos();
        long left;
        while ((left = (end - System.nanoTime()) / 1_000_000) > 0) {
            PGNotification[] notes = pg.getNotifications((int) left);
            if (notes != null) {
                for (PGNotification n : notes) {
                    payloads.add(n.getParameter());
                }
            }
        }
        return payloads;
    }

    /**
     * An executor that refuses the hand-overs {@code refuse} picks by their number (0, 1, …) and runs the others;
     * {@code handed} counts every hand-over, {@code refused} the refused ones.
     */
    private static Executor refusing(java.util.function.IntPredicate refuse, AtomicInteger handed,
            AtomicInteger refused) {
        java.util.concurrent.ExecutorService real =
                java.util.concurrent.Executors.newCachedThreadPool(TestEngine.DAEMONS);
        return task -> {
            if (refuse.test(handed.getAndIncrement())) {
                refused.incrementAndGet();
                throw new RejectedExecutionException("queue full (test)");
            }
            real.execute(task);
        };
    }

    @Test
    void anExecutorThatRefusesGivesTheJobBackWithoutSpendingAnAttempt() {
        Executor flaky = refusing(n -> n < 3, new AtomicInteger(), new AtomicInteger());
        Engine engine = TestEngine.start(TestEngine.settings(TestEngine.queue("default", 1)),
                List.of(new DiagnosticHandlers.Noop()), flaky);
        engines.add(engine);
        long id = submit("weir.noop", "{}", 1);
        await().atMost(WAIT).until(() -> job(id).state() == JobState.COMPLETED);
        assertEquals(1, job(id).attempt(), "refused runs spent no attempt (max-attempts is 1)");
        await().atMost(WAIT).until(() -> engine.capacities().get("default").inFlight() == 0);
    }

    @Test
    void anInstanceHearsAResumeToldBeforeItsNotifierListened() {
        setPaused(true);
        javax.sql.DataSource real = TestDatabase.dataSource();
        java.util.concurrent.CountDownLatch resumed = new java.util.concurrent.CountDownLatch(1);
        // The notifier's connection comes only once the resume below has been told: its NOTIFY reaches nobody here.
        javax.sql.DataSource late = (javax.sql.DataSource) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {javax.sql.DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection")
                            && Thread.currentThread().getName().equals("weir-notifier")) {
                        resumed.await(10, java.util.concurrent.TimeUnit.SECONDS);
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        Engine engine = new Engine(new Engine.Parts(
                TestEngine.settings(TestEngine.queue("default", 2).withPollInterval(Duration.ofSeconds(30))),
                new JdbcTransactor(real), late, new HandlerRegistry(List.of(new DiagnosticHandlers.Noop())),
                new JsonbArgsCodec(), java.util.concurrent.Executors.newCachedThreadPool(TestEngine.DAEMONS),
                TestEngine.DAEMONS, null, dev.weir.metrics.WeirMetrics.NONE));
        engines.add(engine);
        engine.start();
        assertTrue(engine.heardPaused("default"), "it read the pause at start");
        setPaused(false);
        resumed.countDown();
        // Its poll is 30 s away: only reading the pauses again when it begins to listen makes this quick.
        await().atMost(WAIT).until(() -> engine.listening() && !engine.heardPaused("default"));
    }

    @Test
    void refusedAttemptsOfABatchStillStartTheRestOfIt() {
        // A claim's attempts wait in the relay for its tasks (Relay): a refused task gives one of them back, and the
        // rest must still find a task, or those jobs would sit running with nobody to run them.
        AtomicInteger handed = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        Executor flaky = refusing(n -> n < 60 && n % 2 == 0, handed, refused);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            ids.add(submit("weir.noop", "{}", 1));
        }
        Engine engine = TestEngine.start(TestEngine.settings(TestEngine.queue("default", 20)),
                List.of(new DiagnosticHandlers.Noop()), flaky);
        engines.add(engine);
        await().atMost(WAIT).until(() -> count("state = 'completed'") == 40);
        for (long id : ids) {
            assertEquals(1, job(id).attempt(), "job " + id + ": refused runs spent no attempt (max-attempts is 1)");
        }
        assertTrue(refused.get() >= 2, "the executor refused tasks: " + refused.get() + " of " + handed.get());
        await().atMost(WAIT).until(() -> engine.capacities().get("default").inFlight() == 0);
    }

    @Test
    void theJobsOfABatchRunAtOnceWhateverTheirHandlersDo() {
        // Every job of one claim waits for all of them to have started: only if each is handed over before the
        // handlers before it have returned can they all finish.
        int n = 12;
        java.util.concurrent.CountDownLatch all = new java.util.concurrent.CountDownLatch(n);
        JobKind<TestArgs> together = JobKind.of("test.together", TestArgs.class);
        for (int i = 0; i < n; i++) {
            submit(together.name(), "{}", 25);
        }
        start(List.of(handler(together, job -> {
            all.countDown();
            return all.await(10, java.util.concurrent.TimeUnit.SECONDS) ? Outcome.complete()
                    : Outcome.fail("not every job of the batch started: " + all.getCount() + " missing");
        })), TestEngine.queue("default", n).withPollInterval(Duration.ofSeconds(30)));
        await().atMost(WAIT).until(() -> count("state <> 'available' AND state <> 'running'") == n);
        assertEquals(n, count("state = 'completed'"), "every job saw the whole batch running");
    }

    @Test
    void drainLetsRunningJobsFinish() throws InterruptedException {
        AtomicLong started = new AtomicLong();
        JobKind<TestArgs> slow = JobKind.of("test.slow", TestArgs.class);
        Engine engine = start(List.of(handler(slow, job -> {
            started.incrementAndGet();
            Thread.sleep(600);
            return Outcome.complete();
        })), TestEngine.queue("default", 3));
        for (int i = 0; i < 3; i++) {
            submit(slow.name(), "{\"n\":1}", 25);
        }
        await().atMost(WAIT).until(() -> started.get() == 3);
        engines.remove(engine);
        engine.drain(Duration.ofSeconds(10));
        assertEquals(3, count("state = 'completed'"));
        assertEquals(0, count("state = 'running'"));
        assertEquals(0, countInstances(), "a stopped instance removes its heartbeat row");
    }

    @Test
    void drainHandsBackWhatCannotFinishAtOnce() throws InterruptedException {
        AtomicBoolean running = new AtomicBoolean();
        JobKind<TestArgs> stubborn = JobKind.of("test.stubborn", TestArgs.class);
        Engine engine = start(List.of(handler(stubborn, job -> {
            running.set(true);
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < until) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ignored) {
                    // a stubborn handler ignores interrupts
                }
            }
            return Outcome.complete();
        })), TestEngine.queue("default", 1));
        long id = submit(stubborn.name(), "{\"n\":1}", 25);
        await().atMost(WAIT).until(running::get);
        engines.remove(engine);
        long began = System.nanoTime();
        engine.drain(Duration.ofMillis(500));
        assertTrue(System.nanoTime() - began < Duration.ofSeconds(10).toNanos(), "drain respects its timeout");
        JobView view = job(id);
        assertEquals(JobState.AVAILABLE, view.state(), "handed back at once, not left for the rescuer");
        assertTrue(view.errorsJson().contains("abandoned"), view.errorsJson());
    }

    private long countInstances() {
        try (Connection c = TestDatabase.dataSource().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM weir.instances")) {
            rs.next();
            return rs.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anOperatorsCancelReachesTheHandlerWithoutANotificationAndEndsTheJobCancelled() {
        start(List.of(new dev.weir.diagnostics.DiagnosticHandlers.AwaitCancel(), handler(RECORDS, job -> {
            while (!job.isCancelled()) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    // the cancel interrupts too; this handler finishes its work anyway
                }
            }
            return Outcome.complete();   // a completion is not turned into cancelled
        })), TestEngine.queue("default", 4));
        long waits = submit("weir.await-cancel", "{}", 5);
        long completes = submit(RECORDS.name(), "{\"n\": 1}", 5);
        await().atMost(WAIT).until(() -> job(waits).state() == JobState.RUNNING
                && job(completes).state() == JobState.RUNNING);
        // The request written without its NOTIFY: only the heartbeat-paced look can find it.
        tx.inNewTransaction(sql -> sql.update("UPDATE weir.jobs SET cancel_requested_at = now() WHERE id IN (?1, ?2)",
                waits, completes));
        await().atMost(WAIT).until(() -> job(waits).state() == JobState.CANCELLED);
        assertTrue(job(waits).errorsJson().contains("saw the cancellation signal"), job(waits).errorsJson());
        await().atMost(WAIT).until(() -> job(completes).state() == JobState.COMPLETED);
    }

    @Test
    void anOperatorsCancelArrivesAtOnceThroughTheControlChannel() {
        // Heartbeats (and so the fallback look for cancel requests) only every 30 s: within 10 s only NOTIFY can do it.
        Engine e = start(heartbeatsEvery30s(TestEngine.queue("default", 4)),
                List.of(new DiagnosticHandlers.AwaitCancel()));
        long id = submit("weir.await-cancel", "{}", 5);
        await().atMost(WAIT).until(() -> job(id).state() == JobState.RUNNING);
        long asked = System.nanoTime();
        tx.inNewTransaction(sql -> {
            JobStore.lock(sql, id);
            return JobStore.requestCancel(sql, id);
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> job(id).state() == JobState.CANCELLED);
        assertTrue(job(id).errorsJson().contains("cancelled by an operator"), job(id).errorsJson());
        assertTrue(job(id).cancelRequested());
        assertTrue(System.nanoTime() - asked < Duration.ofSeconds(10).toNanos());
    }
}
