package dev.weir.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.testing.JdbcTransactor;
import dev.weir.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The operator statements of ADR 0021 against a real PostgreSQL, without a server. */
@ExtendWith(TestDatabase.class)
class OperatorActionsIT {

    private final JdbcTransactor tx = new JdbcTransactor(TestDatabase.dataSource());

    private List<Long> insert(String queue, String kind, int n) {
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(new NewJob(kind, queue, "{}", 2, 25, null));
        }
        return tx.inNewTransaction(sql -> JobStore.insert(sql, jobs)).stream().map(JobStore.Inserted::id).toList();
    }

    private JobView job(long id) {
        return tx.inNewTransaction(sql -> JobStore.get(sql, id)).orElseThrow();
    }

    private ClaimedJob claimOne(String queue) {
        return tx.inNewTransaction(sql -> JobStore.claim(sql, queue, 1, "instance-a", 60_000)).get(0);
    }

    @Test
    void theListPagesNewestFirstWithFiltersAndABoundedLook() {
        List<Long> a = insert("default", "list.a", 30);
        List<Long> b = insert("default", "list.b", 5);
        JobStore.JobPage first = tx.inNewTransaction(sql -> JobStore.list(sql, Long.MAX_VALUE, null, null, "list.a",
                10, 5000));
        assertEquals(10, first.jobs().size());
        assertEquals(a.get(29), first.jobs().get(0).id());
        assertEquals(a.get(20), first.jobs().get(9).id());
        // A look capped at 8 ids sees the 5 list.b jobs and 3 list.a ones: a short page, and where to go on.
        JobStore.JobPage capped = tx.inNewTransaction(sql -> JobStore.list(sql, Long.MAX_VALUE, null, null, "list.a",
                10, 8));
        assertEquals(3, capped.jobs().size());
        assertEquals(8, capped.looked());
        assertEquals(a.get(27), capped.lowestLooked());
        // Nothing matches in the look: no job, but the look still says how far it got.
        JobStore.JobPage none = tx.inNewTransaction(sql -> JobStore.list(sql, b.get(0), JobState.RUNNING, null,
                "list.b", 10, 3));
        assertTrue(none.jobs().isEmpty());
        assertEquals(3, none.looked());
        JobStore.JobSummary s = first.jobs().get(0);
        assertEquals("available", s.state().dbName());
        assertNull(s.lastError());
        assertFalse(s.cancelRequested());
    }

    @Test
    void aCancelRequestTurnsAnyOutcomeButCompletionIntoCancelled() {
        List<Long> ids = insert("opq", "k", 2);
        ClaimedJob failing = claimOne("opq");
        ClaimedJob completing = claimOne("opq");
        tx.inNewTransaction(sql -> {
            JobStore.lock(sql, failing.id());
            return JobStore.requestCancel(sql, failing.id());
        });
        tx.inNewTransaction(sql -> JobStore.requestCancel(sql, completing.id()));
        assertTrue(job(failing.id()).cancelRequested());
        assertEquals(Map.of(failing.id(), failing.lease(), completing.id(), completing.lease()),
                tx.inNewTransaction(sql -> JobStore.cancelRequested(sql, "instance-a")));
        tx.inNewTransaction(sql -> JobStore.finish(sql, List.of(
                new Finish(failing.id(), failing.lease(), JobState.RETRYABLE, 1000, "it saw the signal", false),
                new Finish(completing.id(), completing.lease(), JobState.COMPLETED, 0, null, false))));
        JobView cancelled = job(failing.id());
        assertEquals(JobState.CANCELLED, cancelled.state());
        assertTrue(cancelled.finalizedAt() != null);
        assertTrue(cancelled.errorsJson().contains("cancelled by an operator (the attempt ended: it saw the signal)"),
                cancelled.errorsJson());
        assertEquals(JobState.COMPLETED, job(completing.id()).state());
        assertEquals(2, ids.size());
    }

    @Test
    void aRescuedAttemptWithACancelRequestEndsCancelled() {
        insert("opr", "k", 1);
        ClaimedJob running = claimOne("opr");
        tx.inNewTransaction(sql -> JobStore.requestCancel(sql, running.id()));
        // instance-a never wrote a heartbeat: its attempt is rescued at once.
        Map<Long, JobState> rescued = tx.inNewTransaction(sql -> JobStore.rescue(sql, 60_000, 1_000, 1000));
        assertEquals(JobState.CANCELLED, rescued.get(running.id()));
    }

    @Test
    void waitingJobsAreCancelledOrDiscardedAtOnceAndRetriedWithAnAttemptLeft() {
        List<Long> ids = insert("ops", "k", 3);
        boolean cancelled = tx.inNewTransaction(sql -> JobStore.cancelNow(sql, ids.get(0)));
        boolean discarded = tx.inNewTransaction(sql -> JobStore.discardNow(sql, ids.get(1)));
        assertTrue(cancelled && discarded);
        assertEquals(JobState.CANCELLED, job(ids.get(0)).state());
        assertTrue(job(ids.get(1)).errorsJson().contains("discarded by an operator"));
        // One attempt, used up, then discarded: the retry grants one more.
        ClaimedJob c = claimOne("ops");
        tx.inNewTransaction(sql -> JobStore.finish(sql, List.of(
                new Finish(c.id(), c.lease(), JobState.DISCARDED, 0, "gave up", false))));
        tx.inNewTransaction(sql -> sql.update("UPDATE weir.jobs SET max_attempts = 1 WHERE id = ?1", c.id()));
        int moved = tx.inNewTransaction(sql -> JobStore.retry(sql, ids));
        assertEquals(3, moved);
        JobView retried = job(c.id());
        assertEquals(JobState.AVAILABLE, retried.state());
        assertEquals(2, retried.maxAttempts());
        assertNull(retried.finalizedAt());
        assertTrue(retried.errorsJson().contains("gave up"), "errors are kept");
        assertFalse(job(ids.get(0)).cancelRequested());
        // The discarded-job batch finds nothing left to retry in this queue.
        assertTrue(tx.inNewTransaction(sql -> JobStore.lockDiscarded(sql, 0, "ops", null, 500)).isEmpty());
    }

    @Test
    void aRetriedJobOfAFullBoundedQueueGetsNoSlotAndItsOwnSlotIsReused() throws Exception {
        AdmissionSlots.reconcile(TestDatabase.dataSource(), Map.of("opb", 2));
        List<JobStore.Inserted> two = tx.inNewTransaction(sql -> AdmissionSlots.insert(sql,
                List.of(new NewJob("k", "opb", "{}", 2, 25, null), new NewJob("k", "opb", "{}", 2, 25, null)),
                AdmissionSlots.cursors(Map.of("opb", 2))).inserted());
        long first = two.get(0).id();
        tx.inNewTransaction(sql -> JobStore.discardNow(sql, first));
        // Room for one: a new job takes it, and the discarded one cannot come back.
        assertTrue(tx.inNewTransaction(sql -> AdmissionSlots.insert(sql,
                List.of(new NewJob("k", "opb", "{}", 2, 25, null)),
                AdmissionSlots.cursors(Map.of("opb", 2)))).admitted());
        assertFalse(tx.inNewTransaction(sql -> AdmissionSlots.take(sql, "opb", first, new SlotCursor(2))).admitted());
        // Discard the newcomer instead: the retried job takes a slot, and the queue is full again (2 outstanding).
        long second = two.get(1).id();
        tx.inNewTransaction(sql -> JobStore.discardNow(sql, second));
        assertTrue(tx.inNewTransaction(sql -> AdmissionSlots.take(sql, "opb", second, new SlotCursor(2))).admitted());
        tx.inNewTransaction(sql -> JobStore.retry(sql, List.of(second)));
        assertEquals(2L, tx.inNewTransaction(AdmissionSlots::outstanding).get("opb"));
        assertFalse(tx.inNewTransaction(sql -> AdmissionSlots.insert(sql,
                List.of(new NewJob("k", "opb", "{}", 2, 25, null)),
                AdmissionSlots.cursors(Map.of("opb", 2)))).admitted());
    }
}
