package dev.weir.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.testing.JdbcTransactor;
import dev.weir.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Elastic admission (ADR 0011) against a real PostgreSQL: the bound, rollback, never waiting, freeing, reconciling. */
@ExtendWith(TestDatabase.class)
class AdmissionSlotsIT {

    private static final String OUTSTANDING = "state IN ('scheduled', 'available', 'running', 'retryable')";

    private final JdbcTransactor tx = new JdbcTransactor(TestDatabase.dataSource());

    private static NewJob job(String queue) {
        return new NewJob("k", queue, "{}", 2, 25, null);
    }

    private static List<NewJob> jobs(String queue, int n) {
        List<NewJob> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(job(queue));
        }
        return list;
    }

    /** The bound each queue was given last; admission uses it only to pick where to start looking. */
    private static final Map<String, Integer> BOUNDS = new java.util.concurrent.ConcurrentHashMap<>();

    private static void bound(String queue, int maxPending) throws SQLException {
        BOUNDS.put(queue, maxPending);
        AdmissionSlots.reconcile(TestDatabase.dataSource(), Map.of(queue, maxPending));
    }

    private static Map<String, SlotCursor> boundOf(String queue) {
        return AdmissionSlots.cursors(Map.of(queue, BOUNDS.getOrDefault(queue, 6)));
    }

    private AdmissionSlots.Result admit(String queue, int n) {
        return admit(queue, n, false);
    }

    /**
     * Admits {@code n} jobs in a transaction of their own, or with none ({@code alone}: each statement in auto-commit,
     * as a group commit of one submission to one bounded queue runs them, ADR 0035).
     */
    private AdmissionSlots.Result admit(String queue, int n, boolean alone) {
        java.util.function.Function<Sql, AdmissionSlots.Result> admission =
                sql -> AdmissionSlots.insert(sql, jobs(queue, n), boundOf(queue));
        return alone ? tx.alone(admission) : tx.inNewTransaction(admission);
    }

    private long slots(String where) {
        return Long.parseLong(value("SELECT count(*) FROM weir.admission_slots WHERE " + where));
    }

    /** The first column of the first row of {@code query}, as text. */
    private static String value(String query) {
        try (Connection c = TestDatabase.dataSource().getConnection(); Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A transaction the test holds open on its own connection. */
    private static final class OpenTransaction implements AutoCloseable {
        final Connection connection;
        final Sql sql;

        OpenTransaction() throws SQLException {
            connection = TestDatabase.dataSource().getConnection();
            connection.setAutoCommit(false);
            sql = new ConnectionSql(connection);
        }

        AdmissionSlots.Result admit(String queue, int n) {
            return AdmissionSlots.insert(sql, jobs(queue, n), boundOf(queue));
        }

        void rollback() throws SQLException {
            connection.rollback();
        }

        void commit() throws SQLException {
            connection.commit();
        }

        @Override
        public void close() throws SQLException {
            connection.rollback();
            connection.close();
        }
    }

    private static long timed(Runnable r) {
        long began = System.nanoTime();
        r.run();
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
    }

    @ParameterizedTest(name = "without a transaction: {0}")
    @ValueSource(booleans = {false, true})
    void theBoundHoldsUnderConcurrentSubmittersWhileJobsComplete(boolean alone) throws Exception {
        bound("bounded", 50);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong admitted = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        AtomicLong completed = new AtomicLong();
        AtomicLong maxOutstanding = new AtomicLong();
        AtomicLong samples = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(34);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 32; t++) {
            int size = t % 4 == 0 ? 3 : 1;
            futures.add(pool.submit(() -> {
                while (!stop.get()) {
                    AdmissionSlots.Result r = admit("bounded", size, alone);
                    (r.admitted() ? admitted : refused).addAndGet(r.admitted() ? size : 1);
                }
                return null;
            }));
        }
        futures.add(pool.submit(() -> {
            while (!stop.get()) {
                List<ClaimedJob> claimed = tx.inNewTransaction(sql -> JobStore.claim(sql, "bounded", 7, "me", 60_000));
                List<Finish> done = new ArrayList<>();
                for (ClaimedJob j : claimed) {
                    done.add(new Finish(j.id(), j.lease(), JobState.COMPLETED, 0, null, false));
                }
                completed.addAndGet(tx.inNewTransaction(sql -> JobStore.finish(sql, done)).size());
            }
            return null;
        }));
        futures.add(pool.submit(() -> {
            // One connection of its own, so that sampling is not slowed by connecting.
            try (Connection c = TestDatabase.dataSource().getConnection(); Statement s = c.createStatement()) {
                while (!stop.get()) {
                    try (java.sql.ResultSet rs = s.executeQuery(
                            "SELECT count(*) FROM weir.jobs WHERE queue = 'bounded' AND " + OUTSTANDING)) {
                        rs.next();
                        maxOutstanding.accumulateAndGet(rs.getLong(1), Math::max);
                    }
                    samples.incrementAndGet();
                }
            }
            return null;
        }));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (System.nanoTime() < until) {
            Thread.sleep(50);
        }
        stop.set(true);
        for (Future<?> f : futures) {
            f.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertTrue(maxOutstanding.get() <= 50, "outstanding reached " + maxOutstanding.get() + " > 50");
        assertTrue(samples.get() >= 10, "sampled " + samples.get() + " times");
        assertTrue(maxOutstanding.get() >= 45, "the queue did fill up: " + maxOutstanding.get());
        assertTrue(completed.get() > 0 && admitted.get() > 50, "room came back as jobs completed: admitted "
                + admitted.get() + ", completed " + completed.get());
        assertTrue(refused.get() > 0, "some submissions were refused");
        long outstanding = TestDatabase.countJobs("queue = 'bounded' AND " + OUTSTANDING);
        assertEquals(outstanding, tx.inNewTransaction(AdmissionSlots::outstanding).getOrDefault("bounded", 0L),
                "every outstanding job holds a slot");
        assertEquals(admitted.get(), TestDatabase.countJobs("queue = 'bounded'"), "every admitted job was stored");
    }

    @Test
    void aRefusedBatchLeavesNothingBehind() throws Exception {
        bound("bounded", 5);
        assertTrue(admit("bounded", 3).admitted());
        AdmissionSlots.Result refused = admit("bounded", 3);
        assertFalse(refused.admitted());
        assertEquals("bounded", refused.refusedQueue());
        assertEquals(3, refused.requested());
        assertEquals(2, refused.available());
        assertEquals(3, TestDatabase.countJobs("true"));
        assertEquals(3, slots("job_id IS NOT NULL"));
        assertTrue(admit("bounded", 2).admitted(), "exactly the room left fits");
        assertFalse(admit("bounded", 1).admitted());
        assertEquals(5, TestDatabase.countJobs("true"));
    }

    @Test
    void aBatchOverSeveralBoundedQueuesIsAllOrNothingAndLeavesTheTransactionUsable() throws Exception {
        AdmissionSlots.reconcile(TestDatabase.dataSource(), Map.of("a", 2, "b", 1));
        Map<String, Integer> bounds = Map.of("a", 2, "b", 1);
        try (OpenTransaction t = new OpenTransaction()) {
            AdmissionSlots.Result r = AdmissionSlots.insert(t.sql, List.of(job("a"), job("b"), job("b")),
                    AdmissionSlots.cursors(bounds));
            assertFalse(r.admitted());
            assertEquals("b", r.refusedQueue());
            // The transaction goes on: what queue a admitted was undone, other work still commits.
            JobStore.insert(t.sql, List.of(job("default")));
            t.commit();
        }
        assertEquals(0, TestDatabase.countJobs("queue IN ('a', 'b')"));
        assertEquals(1, TestDatabase.countJobs("queue = 'default'"));
        AdmissionSlots.Result ok = tx.inNewTransaction(sql -> AdmissionSlots.insert(sql,
                List.of(job("b"), job("default"), job("a"), job("a")), AdmissionSlots.cursors(bounds)));
        assertTrue(ok.admitted());
        assertEquals(List.of("b", "default", "a", "a"), ok.inserted().stream().map(JobStore.Inserted::queue).toList(),
                "answers come in the submission's order");
        assertFalse(admit("a", 1).admitted());
        assertFalse(admit("b", 1).admitted());
    }

    @Test
    void independentSingleSubmissionsTakeWhatRoomThereIsInOrder() throws Exception {
        bound("bounded", 5);
        try (OpenTransaction open = new OpenTransaction()) {
            assertTrue(open.admit("bounded", 1).admitted());
            // One slot is held by an open transaction and one is taken: 3 of the 5 submissions fit, the first three.
            assertTrue(admit("bounded", 1).admitted());
            List<NewJob> five = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                five.add(new NewJob("k" + i, "bounded", "{}", 2, 25, null));
            }
            List<JobStore.Inserted> first = tx.inNewTransaction(
                    sql -> AdmissionSlots.admitEach(sql, "bounded", five, new SlotCursor(5)));
            assertEquals(3, first.size());
            assertEquals(List.of("k0", "k1", "k2"), first.stream().map(j -> kindOf(j.id())).toList(),
                    "the first submissions in the list, each with its own row");
            assertEquals(4, slots("job_id IS NOT NULL"), "each admitted job points a slot at itself");
            assertEquals(0, tx.inNewTransaction(sql -> AdmissionSlots.admitEach(sql, "bounded", five,
                    new SlotCursor(5))).size(), "no room left: nothing stored");
            open.rollback();
        }
        assertEquals(4, TestDatabase.countJobs("queue = 'bounded'"));
        assertEquals(1, tx.inNewTransaction(sql -> AdmissionSlots.admitEach(sql, "bounded", jobs("bounded", 2),
                new SlotCursor(5))).size(), "the rolled-back slot is free again, and only it");
        assertFalse(admit("bounded", 1).admitted());
    }

    @Test
    void admissionsTakeTheSlotsAheadOfTheCursorAndComeRoundToTheFreedOnes() throws Exception {
        bound("bounded", 10);
        SlotCursor cursor = new SlotCursor(10, 0);
        Map<String, SlotCursor> cursors = Map.of("bounded", cursor);
        List<Long> first = admitted(tx.inNewTransaction(sql -> AdmissionSlots.insert(sql, jobs("bounded", 3),
                cursors)));
        List<Long> second = admitted(tx.inNewTransaction(sql -> AdmissionSlots.insert(sql, jobs("bounded", 2),
                cursors)));
        assertEquals(List.of(1, 2, 3), slotsOf(first), "the first admission starts at the cursor");
        assertEquals(List.of(4, 5), slotsOf(second), "the next one starts where the first stopped");
        // The first two jobs end: their slots are free, behind the cursor.
        finish(first.subList(0, 2));
        List<Long> third = admitted(tx.inNewTransaction(sql -> AdmissionSlots.insert(sql, jobs("bounded", 5),
                cursors)));
        assertEquals(List.of(6, 7, 8, 9, 10), slotsOf(third), "ahead of the cursor first");
        List<Long> fourth = admitted(tx.inNewTransaction(sql -> AdmissionSlots.insert(sql, jobs("bounded", 2),
                cursors)));
        assertEquals(List.of(1, 2), slotsOf(fourth), "then round the ring to the slots that were freed");
        assertFalse(tx.inNewTransaction(sql -> AdmissionSlots.insert(sql, jobs("bounded", 1), cursors)).admitted(),
                "every slot is taken again");
    }

    @Test
    void aCursorThatFoundTooLittleRoomMovesPastWhereItLooked() throws Exception {
        bound("bounded", 100);
        tx.inNewTransaction(sql -> AdmissionSlots.insert(sql, jobs("bounded", 70), Map.of("bounded",
                new SlotCursor(100, 0))));
        // Another instance's cursor, at the start of the slots the first one filled: its window of 64 slots (5 + 32,
        // rounded up to a power of two) holds none that is free.
        assertEquals(64, AdmissionSlots.firstWindow(5));
        SlotCursor other = new SlotCursor(100, 0);
        assertEquals(0, tx.inNewTransaction(sql -> AdmissionSlots.admitEach(sql, "bounded", jobs("bounded", 5),
                other)).size());
        List<JobStore.Inserted> next = tx.inNewTransaction(sql -> AdmissionSlots.admitEach(sql, "bounded",
                jobs("bounded", 1), other));
        assertEquals(List.of(71), slotsOf(ids(next)), "the next look starts past the 64 slots already seen");
        assertTrue(other.reserve(1) >= 65, "the cursor moved past the window that had no room");
    }

    private static List<Long> admitted(AdmissionSlots.Result result) {
        assertTrue(result.admitted());
        return ids(result.inserted());
    }

    private static List<Long> ids(List<JobStore.Inserted> inserted) {
        return inserted.stream().map(JobStore.Inserted::id).toList();
    }

    private static List<Integer> slotsOf(List<Long> ids) {
        List<Integer> slots = new ArrayList<>();
        for (long id : ids) {
            slots.add(Integer.parseInt(value("SELECT slot FROM weir.admission_slots WHERE job_id = " + id)));
        }
        return slots;
    }

    private static void finish(List<Long> ids) {
        try (Connection c = TestDatabase.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (long id : ids) {
                s.executeUpdate("UPDATE weir.jobs SET state = 'completed', finalized_at = now() WHERE id = " + id);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String kindOf(long id) {
        return value("SELECT kind FROM weir.jobs WHERE id = " + id);
    }

    @Test
    void aRollbackGivesTheRoomBackAtOnce() throws Exception {
        bound("bounded", 2);
        try (OpenTransaction open = new OpenTransaction()) {
            assertTrue(open.admit("bounded", 2).admitted());
            assertFalse(admit("bounded", 1).admitted(), "the open transaction holds both slots");
            open.rollback();
            assertTrue(admit("bounded", 2).admitted(), "the room is back the moment the transaction rolled back");
        }
        assertEquals(2, TestDatabase.countJobs("true"));
    }

    @Test
    void aSubmitterNeverWaitsForAnotherOnesOpenTransaction() throws Exception {
        bound("bounded", 3);
        try (OpenTransaction open = new OpenTransaction()) {
            assertTrue(open.admit("bounded", 1).admitted());
            // The other transaction is still open and holds its slot's row lock: these must answer at once.
            long admitMs = timed(() -> assertTrue(admit("bounded", 2).admitted()));
            long refuseMs = timed(() -> {
                AdmissionSlots.Result r = admit("bounded", 1);
                assertFalse(r.admitted());
                assertEquals(0, r.available());
            });
            assertTrue(admitMs < 2000 && refuseMs < 2000, "answered in " + admitMs + " and " + refuseMs + " ms");
            open.commit();
        }
        assertEquals(3, TestDatabase.countJobs(OUTSTANDING));
    }

    @Test
    void aRefusalForWantOfRoomLocksNothingInsideALongTransaction() throws Exception {
        bound("bounded", 2);
        try (OpenTransaction open = new OpenTransaction()) {
            assertFalse(open.admit("bounded", 3).admitted(), "3 never fit in 2");
            // The refused transaction stays open; it must not sit on the two free slots.
            assertTrue(admit("bounded", 2).admitted());
        }
    }

    /** Claims the queue's one job and writes {@code outcome} for it. */
    private void claimAndFinish(JobState outcome) {
        ClaimedJob j = tx.inNewTransaction(sql -> JobStore.claim(sql, "bounded", 1, "me", 60_000)).get(0);
        assertEquals(java.util.Set.of(j.id()), tx.inNewTransaction(sql -> JobStore.finish(sql,
                List.of(new Finish(j.id(), j.lease(), outcome, 60_000, "x", false)))));
    }

    @Test
    void everyTerminalPathGivesTheRoomBack() throws Exception {
        bound("bounded", 1);
        for (JobState terminal : List.of(JobState.COMPLETED, JobState.DISCARDED, JobState.CANCELLED)) {
            assertTrue(admit("bounded", 1).admitted());
            assertFalse(admit("bounded", 1).admitted());
            claimAndFinish(terminal);
            assertTrue(admit("bounded", 1).admitted(), "room back after " + terminal);
            tx.inNewTransaction(sql -> sql.update("DELETE FROM weir.jobs WHERE state = 'available'"));
        }
        // A failure to retry later keeps the job outstanding, and its slot with it.
        assertTrue(admit("bounded", 1).admitted());
        claimAndFinish(JobState.RETRYABLE);
        assertFalse(admit("bounded", 1).admitted(), "a retryable job still holds its slot");
        // Deleting the row (retention, an operator) frees it.
        tx.inNewTransaction(sql -> sql.update("DELETE FROM weir.jobs WHERE state = 'retryable'"));
        assertTrue(admit("bounded", 1).admitted(), "room back after the row was deleted");
    }

    @Test
    void aRescueThatEndsInDiscardGivesTheRoomBack() throws Exception {
        bound("bounded", 1);
        List<NewJob> lastAttempt = List.of(new NewJob("k", "bounded", "{}", 2, 1, null));
        assertTrue(tx.inNewTransaction(sql -> AdmissionSlots.insert(sql, lastAttempt,
                AdmissionSlots.cursors(Map.of("bounded", 1)))).admitted());
        // Claimed by an instance that never writes a heartbeat: the rescuer discards it (its only attempt is spent).
        tx.inNewTransaction(sql -> JobStore.claim(sql, "bounded", 1, "ghost", 60_000));
        assertFalse(admit("bounded", 1).admitted(), "a running job holds its slot");
        assertEquals(JobState.DISCARDED, tx.inNewTransaction(sql -> JobStore.rescue(sql, 1, 1, 10)).values()
                .iterator().next());
        assertTrue(admit("bounded", 1).admitted());
    }

    @Test
    void aRescueThatMakesTheJobAvailableKeepsItsSlot() throws Exception {
        bound("bounded", 1);
        assertTrue(admit("bounded", 1).admitted());
        tx.inNewTransaction(sql -> JobStore.claim(sql, "bounded", 1, "ghost", 60_000));
        assertEquals(JobState.AVAILABLE, tx.inNewTransaction(sql -> JobStore.rescue(sql, 1, 1, 10)).values()
                .iterator().next());
        assertFalse(admit("bounded", 1).admitted());
    }

    @Test
    void reconciliationGrowsShrinksAndAdoptsExistingWork() throws Exception {
        // Three jobs submitted while the queue was unbounded.
        tx.inNewTransaction(sql -> JobStore.insert(sql, jobs("bounded", 3)));
        List<AdmissionSlots.Reconciled> r = AdmissionSlots.reconcile(TestDatabase.dataSource(), Map.of("bounded", 5));
        assertEquals(new AdmissionSlots.Reconciled("bounded", 0, 5, 3), r.get(0));
        assertEquals(5, slots("queue = 'bounded'"));
        assertEquals(3, slots("job_id IS NOT NULL"));
        AdmissionSlots.Result refused = admit("bounded", 3);
        assertFalse(refused.admitted(), "the adopted jobs count");
        assertEquals(2, refused.available());

        // Nothing to do: one read, no change.
        assertFalse(AdmissionSlots.reconcile(TestDatabase.dataSource(), Map.of("bounded", 5)).get(0).changed());

        // Shrinking removes free slots first.
        AdmissionSlots.reconcile(TestDatabase.dataSource(), Map.of("bounded", 4));
        assertEquals(4, slots("queue = 'bounded'"));
        assertEquals(3, slots("job_id IS NOT NULL"));
        assertTrue(admit("bounded", 1).admitted());
        assertFalse(admit("bounded", 1).admitted());

        // Below the work it has, the queue keeps what it can and refuses until it is under the new bound.
        AdmissionSlots.reconcile(TestDatabase.dataSource(), Map.of("bounded", 2));
        assertEquals(2, slots("queue = 'bounded'"));
        assertFalse(admit("bounded", 1).admitted());

        // Growing again: the jobs that lost their slot take one back, and the rest is room.
        AdmissionSlots.Reconciled grown = AdmissionSlots.reconcile(TestDatabase.dataSource(), Map.of("bounded", 6))
                .get(0);
        assertEquals(2, grown.adopted());
        assertEquals(6, slots("queue = 'bounded'"));
        assertEquals(4L, tx.inNewTransaction(AdmissionSlots::outstanding).get("bounded"));
        assertTrue(admit("bounded", 2).admitted());
        assertFalse(admit("bounded", 1).admitted());
    }

    @Test
    void reconciliationThatAddsOrRemovesSlotsLeavesThemAnalysed() throws Exception {
        // The planner's row count of the table, which only ANALYZE (or VACUUM) sets: -1 after the TRUNCATE before
        // each test. The admission statement's generic plan is made from it (ADR 0037).
        String rows = "SELECT reltuples::bigint FROM pg_class WHERE oid = 'weir.admission_slots'::regclass";
        assertEquals("-1", value(rows), "a truncated table has no statistics");
        AdmissionSlots.reconcile(TestDatabase.dataSource(), Map.of("bounded", 300, "other", 20));
        assertEquals("320", value(rows));
        AdmissionSlots.reconcile(TestDatabase.dataSource(), Map.of("bounded", 100));
        assertEquals("120", value(rows));
        // Nothing changed: the table is not analysed again (its statistics would be the same).
        long analysed = analyses();
        assertTrue(analysed >= 2, "two analyses counted: " + analysed);
        assertFalse(AdmissionSlots.reconcile(TestDatabase.dataSource(), Map.of("bounded", 100)).get(0).changed());
        assertEquals(analysed, analyses());
    }

    /** How many times weir.admission_slots was analysed other than by autovacuum, as PostgreSQL counts it. */
    private static long analyses() {
        return Long.parseLong(value("SELECT analyze_count FROM pg_stat_user_tables WHERE relid = "
                + "'weir.admission_slots'::regclass"));
    }

    @Test
    void theDefaultPlanChoiceKeepsTheAdmissionStatementsGenericPlan() throws Exception {
        // Statistics say the queue has many slots (reconciliation analyses them). With its window bound as a
        // parameter, the generic plan reckoned on far more of them than the window holds and the default choice planned
        // the statement afresh at every execution; with the window in the text it keeps the generic plan (ADR 0038).
        bound("bounded", 20_000);
        SlotCursor cursor = new SlotCursor(20_000, 0);
        try (Connection c = TestDatabase.dataSource().getConnection(); Statement s = c.createStatement()) {
            try (java.sql.ResultSet rs = s.executeQuery("SHOW plan_cache_mode")) {
                rs.next();
                assertEquals("auto", rs.getString(1), "the test needs PostgreSQL's default plan choice");
            }
            c.setAutoCommit(false);
            Sql sql = new ConnectionSql(c);
            for (int i = 0; i < 20; i++) {
                assertEquals(4, AdmissionSlots.admitEach(sql, "bounded", jobs("bounded", 4), cursor).size());
                c.rollback();
            }
            try (java.sql.ResultSet rs = s.executeQuery("SELECT generic_plans, custom_plans"
                    + " FROM pg_prepared_statements WHERE statement LIKE '%window_slots%'")) {
                assertTrue(rs.next(), "the driver prepared the admission statement on the server");
                long generic = rs.getLong(1);
                long custom = rs.getLong(2);
                // PostgreSQL plans the first five executions afresh, then compares the generic plan with them.
                assertTrue(custom <= 5 && generic >= 5, "generic plans " + generic + ", custom plans " + custom);
                assertFalse(rs.next(), "one text for one window");
            }
        }
    }

    @Test
    void concurrentReconciliationsTakeTurns() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            futures.add(pool.submit(() -> AdmissionSlots.reconcile(TestDatabase.dataSource(), Map.of("bounded", 40))));
        }
        for (Future<?> f : futures) {
            f.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertEquals(40, slots("queue = 'bounded'"));
        assertEquals(40, slots("queue = 'bounded' AND slot BETWEEN 1 AND 40"));
    }

    @ParameterizedTest(name = "without a transaction: {0}")
    @ValueSource(booleans = {false, true})
    void theWindowWidensPastSlotsOtherTransactionsHold(boolean alone) throws Exception {
        int bound = AdmissionSlots.WINDOW_SLACK * 3;
        bound("bounded", bound);
        try (OpenTransaction open = new OpenTransaction()) {
            // More slots held (locked) than the first window can see past.
            assertTrue(open.admit("bounded", AdmissionSlots.WINDOW_SLACK * 2).admitted());
            assertTrue(admit("bounded", AdmissionSlots.WINDOW_SLACK, alone).admitted(),
                    "the free slots beyond the locked ones are found");
            AdmissionSlots.Result refused = admit("bounded", 1, alone);
            assertFalse(refused.admitted());
            assertEquals(0, refused.available(), "every slot is taken or held");
        }
        assertEquals(AdmissionSlots.WINDOW_SLACK, TestDatabase.countJobs("queue = 'bounded'"),
                "the open transaction's jobs rolled back; the others stayed");
    }
}
