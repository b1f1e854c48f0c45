package dev.weir.store;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.api.Progress;
import dev.weir.testing.JdbcTransactor;
import dev.weir.testing.ServerXml;
import dev.weir.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/** Weir's statements against a real PostgreSQL, without a server. */
@ExtendWith(TestDatabase.class)
class JobStoreIT {

    private final JdbcTransactor tx = new JdbcTransactor(TestDatabase.dataSource());

    private List<Long> insert(int n, String kind) {
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(new NewJob(kind, "default", "{\"i\":" + i + "}", 2, 25, null));
        }
        return tx.inNewTransaction(sql -> JobStore.insert(sql, jobs)).stream().map(JobStore.Inserted::id).toList();
    }

    /** Two jobs of queue default submitted and claimed by "me": running, in id order. */
    private List<ClaimedJob> twoRunning() {
        insert(2, "k");
        return tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 2, "me", 60_000));
    }

    private String state(long id) {
        return tx.inNewTransaction(sql -> JobStore.get(sql, id)).orElseThrow().state().dbName();
    }

    @Test
    void aBatchKeepsEachJobsArgumentsOptionsAndOrderWhateverTheyHold() {
        Instant later = Instant.parse("2031-05-06T07:08:09.123456Z");
        List<NewJob> jobs = List.of(
                new NewJob("k.one", "default", "{\"quote\":\"say \\\"hi\\\"\",\"slash\":\"a\\\\b\"}", 1, 3, null),
                new NewJob("k.two", "emails", "{\"braces\":\"{x,y}\",\"null\":\"NULL\",\"nothing\":null}", 4, 7,
                        later),
                new NewJob("k.three", "default", null, 2, 25, null),
                new NewJob("k.four", "default", "{\"text\":\"\u00e9t\u00e9 \u2014 \u65e5\u672c, 'quoted'\"}", 3, 1,
                        null));
        assertFalse(JobStore.uniform(jobs), "this batch takes an array per column");
        List<JobStore.Inserted> inserted = tx.inNewTransaction(sql -> JobStore.insert(sql, jobs));
        assertEquals(4, inserted.size());
        for (int i = 1; i < inserted.size(); i++) {
            assertTrue(inserted.get(i).id() > inserted.get(i - 1).id(), "ids follow the list's order");
        }
        for (int i = 0; i < jobs.size(); i++) {
            NewJob job = jobs.get(i);
            long id = inserted.get(i).id();
            JobView stored = tx.inNewTransaction(sql -> JobStore.get(sql, id)).orElseThrow();
            assertEquals(job.kind(), stored.kind());
            assertEquals(job.queue(), stored.queue());
            assertEquals(job.queue(), inserted.get(i).queue());
            assertEquals(job.priority(), stored.priority());
            assertEquals(job.maxAttempts(), stored.maxAttempts());
            assertEquals(parse(job.argsJson() == null ? "{}" : job.argsJson()), parse(stored.argsJson()));
            JobState expected = job.runAt() == null ? JobState.AVAILABLE : JobState.SCHEDULED;
            assertEquals(expected, stored.state());
            assertEquals(expected, inserted.get(i).state());
        }
        assertEquals(later, tx.inNewTransaction(sql -> JobStore.get(sql, inserted.get(1).id())).orElseThrow().runAt());
    }

    @Test
    void aBatchThatDiffersInItsArgumentsOnlyKeepsEachJobsArgumentsAndOrder() {
        Instant later = Instant.parse("2031-05-06T07:08:09.123456Z");
        for (Instant runAt : Arrays.asList(null, later)) {
            List<NewJob> jobs = new ArrayList<>();
            for (String args : Arrays.asList("{\"n\":1}", null, "{\"quote\":\"a \\\"b\\\" \\\\ {c,d}\"}",
                    "{\"n\":4}")) {
                jobs.add(new NewJob("k.same", "emails", args, 3, 7, runAt));
            }
            assertTrue(JobStore.uniform(jobs));
            List<JobStore.Inserted> inserted = tx.inNewTransaction(sql -> JobStore.insert(sql, jobs));
            assertEquals(jobs.size(), inserted.size());
            for (int i = 0; i < jobs.size(); i++) {
                long id = inserted.get(i).id();
                JobView stored = tx.inNewTransaction(sql -> JobStore.get(sql, id)).orElseThrow();
                String args = jobs.get(i).argsJson();
                assertEquals(parse(args == null ? "{}" : args), parse(stored.argsJson()), "job " + i);
                assertEquals("k.same", stored.kind());
                assertEquals("emails", stored.queue());
                assertEquals(3, stored.priority());
                assertEquals(7, stored.maxAttempts());
                JobState expected = runAt == null ? JobState.AVAILABLE : JobState.SCHEDULED;
                assertEquals(expected, stored.state());
                assertEquals(expected, inserted.get(i).state());
                if (runAt != null) {
                    assertEquals(runAt, stored.runAt());
                }
                if (i > 0) {
                    assertTrue(id > inserted.get(i - 1).id(), "ids follow the list's order");
                }
            }
        }
    }

    private static JsonValue parse(String json) {
        try (JsonReader r = Json.createReader(new StringReader(json))) {
            return r.readValue();
        }
    }

    @Test
    void concurrentDispatchersNeverClaimAJobTwice() throws Exception {
        List<Long> ids = insert(2000, "k");
        ConcurrentLinkedQueue<Long> claimed = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            String owner = "instance-" + t;
            futures.add(pool.submit(() -> {
                go.await();
                while (true) {
                    List<ClaimedJob> batch = tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 17, owner, 60_000));
                    if (batch.isEmpty()) {
                        return null;
                    }
                    batch.forEach(j -> claimed.add(j.id()));
                }
            }));
        }
        go.countDown();
        for (Future<?> f : futures) {
            f.get();
        }
        pool.shutdown();
        assertEquals(ids.size(), claimed.size(), "every job claimed exactly once in total");
        assertEquals(new HashSet<>(ids), new HashSet<>(claimed), "no job claimed twice, none missed");
    }

    @Test
    void claimTakesPriorityOrderAndBumpsLease() {
        List<NewJob> jobs = List.of(
                new NewJob("k", "default", "{}", 4, 25, null),
                new NewJob("k", "default", "{}", 1, 25, null),
                new NewJob("k", "default", "{}", 3, 25, null),
                new NewJob("k", "other", "{}", 1, 25, null));
        List<Long> ids = tx.inNewTransaction(sql -> JobStore.insert(sql, jobs)).stream()
                .map(JobStore.Inserted::id).toList();
        List<ClaimedJob> first = tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 2, "me", 1000));
        assertEquals(List.of(ids.get(1), ids.get(2)), first.stream().map(ClaimedJob::id).toList());
        assertEquals(1, first.get(0).attempt());
        assertEquals(1, first.get(0).lease());
        assertEquals("running", state(ids.get(1)));
        assertEquals("available", state(ids.get(3)), "another queue's job is left alone");
    }

    @Test
    void aClaimAfterAKeyTakesOnlyTheJobsAfterItInClaimOrder() {
        List<NewJob> jobs = List.of(
                new NewJob("k", "default", "{}", 2, 25, null),
                new NewJob("k", "default", "{}", 2, 25, null),
                new NewJob("k", "default", "{}", 3, 25, null),
                new NewJob("k", "default", "{}", 1, 25, null));
        List<Long> ids = tx.inNewTransaction(sql -> JobStore.insert(sql, jobs)).stream()
                .map(JobStore.Inserted::id).toList();
        // Different run_at values, down to the microsecond: the key must carry them exactly.
        tx.inNewTransaction(sql -> sql.update("UPDATE weir.jobs SET run_at = now() - (id % 7) * interval '1 microsecond'"
                + " - interval '1 second' WHERE id = ANY (CAST(?1 AS bigint[]))", "{" + ids.get(0) + "," + ids.get(1) + "}"));
        List<ClaimedJob> head = tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 2, "me", 1000));
        assertEquals(ids.get(3), head.get(0).id(), "priority 1 first");
        ClaimKey after = ClaimKey.max(head.get(0).key(), head.get(1).key());
        // Put the first job claimed back: it comes before the key, so a claim after the key must not see it.
        tx.inNewTransaction(sql -> sql.update("UPDATE weir.jobs SET state = 'available' WHERE id = ?1", head.get(0).id()));
        List<ClaimedJob> rest = tx.inNewTransaction(sql -> JobStore.claim(sql, new JobStore.ClaimRequest("default", 5, "me", 1000, after)));
        List<Long> expected = new java.util.ArrayList<>(ids.subList(0, 3));
        expected.remove(head.get(1).id());
        assertEquals(expected, rest.stream().map(ClaimedJob::id).sorted().toList(),
                "the jobs after the key, and not the one put back before it");
        for (ClaimedJob j : rest) {
            assertTrue(j.key().compareTo(after) > 0);
        }
        assertEquals(List.of(head.get(0).id()), tx.inNewTransaction(sql -> JobStore.claim(sql,
                new JobStore.ClaimRequest("default", 5, "me", 1000, ClaimKey.START))).stream().map(ClaimedJob::id).toList(), "from the start it is found again");
    }

    @Test
    void aPausedQueueYieldsNothingUntilResumed() {
        long id = insert(1, "k").get(0);
        tx.inNewTransaction(sql -> {
            JobStore.setPaused(sql, "default", true);
            return null;
        });
        assertEquals(List.of(), tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 5, "me", 1000)));
        tx.inNewTransaction(sql -> {
            JobStore.setPaused(sql, "default", false);
            return null;
        });
        assertEquals(id, tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 5, "me", 1000)).get(0).id());
    }

    @Test
    void claimsAndOutcomesCommitWithoutWaitingForTheDiskButSubmissionsDo() {
        insert(1, "k");
        // The test database runs with synchronous_commit off; each transaction here starts from 'on', as a
        // production server would.
        assertEquals("on", tx.inNewTransaction(sql -> {
            sql.update("SET LOCAL synchronous_commit = on");
            JobStore.insert(sql, List.of(new NewJob("k", "default", "{}", 2, 25, null)));
            return sql.query("SELECT current_setting('synchronous_commit')").get(0)[0];
        }), "a submission keeps the server's durable commit");
        assertEquals("off", tx.inNewTransaction(sql -> {
            sql.update("SET LOCAL synchronous_commit = on");
            JobStore.claim(sql, "default", 1, "me", 1000);
            return sql.query("SELECT current_setting('synchronous_commit')").get(0)[0];
        }));
        assertEquals("off", tx.inNewTransaction(sql -> {
            ClaimedJob job = JobStore.claim(sql, "default", 1, "me", 1000).get(0);
            sql.update("SET LOCAL synchronous_commit = on");
            JobStore.finish(sql, List.of(new Finish(job.id(), job.lease(), JobState.COMPLETED, 0, null, false)));
            return sql.query("SELECT current_setting('synchronous_commit')").get(0)[0];
        }));
    }

    @Test
    void rolledBackInsertLeavesNothing() {
        try {
            tx.inNewTransaction(sql -> {
                JobStore.insert(sql, List.of(new NewJob("k", "default", "{}", 2, 25, null)));
                throw new IllegalStateException("the application's transaction fails");
            });
        } catch (IllegalStateException expected) {
            // rolled back
        }
        assertEquals(0, count("SELECT count(*) FROM weir.jobs"));
        insert(1, "k");
        assertEquals(1, count("SELECT count(*) FROM weir.jobs"));
    }

    @Test
    void aTurnRecordsOutcomesAndClaimsInOneStatementThatCommitsAlone() {
        List<Long> ids = insert(4, "k");
        List<ClaimedJob> first = tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 2, "me", 60_000));
        List<Finish> outcomes = List.of(
                new Finish(first.get(0).id(), first.get(0).lease(), JobState.COMPLETED, 0, null, false),
                // A retry due at once: available again, yet not claimed by the same statement (its snapshot).
                new Finish(first.get(1).id(), first.get(1).lease(), JobState.AVAILABLE, 0, "again", false));
        ClaimKey after = ClaimKey.max(first.get(0).key(), first.get(1).key());
        JobStore.Turn turn = tx.alone(sql -> JobStore.turn(sql, outcomes,
                new JobStore.ClaimRequest("default", 5, "me", 60_000, after)));
        assertEquals(Map.of(first.get(0).id(), JobState.COMPLETED, first.get(1).id(), JobState.AVAILABLE),
                turn.finished());
        assertEquals(ids.subList(2, 4), turn.claimed().stream().map(ClaimedJob::id).toList());
        // Committed by itself: another connection sees both parts.
        assertEquals("completed", state(first.get(0).id()));
        assertEquals("available", state(first.get(1).id()));
        assertEquals("running", state(ids.get(2)));
        assertEquals("running", state(ids.get(3)));
        // A late outcome in a turn changes nothing, and the claim part still works: the retried job is next.
        JobStore.Turn late = tx.alone(sql -> JobStore.turn(sql, outcomes.subList(0, 1),
                new JobStore.ClaimRequest("default", 5, "me", 60_000, ClaimKey.START)));
        assertEquals(Map.of(), late.finished());
        assertEquals(List.of(first.get(1).id()), late.claimed().stream().map(ClaimedJob::id).toList());
        assertEquals(2, late.claimed().get(0).attempt());
    }

    /**
     * A turn notifies the queue of an outcome that made its job available again, and of two outcomes for one job (an
     * earlier attempt's, late, and the running one's) takes the one whose lease is current.
     */
    @Test
    void aTurnNotifiesTheQueueOfARetryAndTellsEachOutcomeOfAJobApartByItsLease() throws Exception {
        List<ClaimedJob> running = twoRunning();
        ClaimedJob retried = running.get(0);
        ClaimedJob done = running.get(1);
        try (Connection listener = TestDatabase.dataSource().getConnection();
                Statement s = listener.createStatement()) {
            s.execute("LISTEN weir_jobs");
            JobStore.Turn turn = tx.alone(sql -> JobStore.turn(sql, List.of(
                    // A late outcome of an earlier attempt of the same job, beside the one that applies.
                    new Finish(done.id(), done.lease() - 1, JobState.DISCARDED, 0, "stale", false),
                    new Finish(done.id(), done.lease(), JobState.COMPLETED, 0, null, false),
                    new Finish(retried.id(), retried.lease(), JobState.AVAILABLE, 0, "again", false)),
                    List.of()));
            assertEquals(Map.of(done.id(), JobState.COMPLETED, retried.id(), JobState.AVAILABLE), turn.finished());
            PGNotification[] notes = listener.unwrap(PGConnection.class).getNotifications(10_000);
            assertTrue(notes != null && notes.length == 1 && notes[0].getParameter().equals("default"),
                    "one notification for the queue default: " + Arrays.toString(notes));
        }
        assertEquals("completed", state(done.id()));
        assertEquals("available", state(retried.id()));
    }

    @Test
    void aTurnClaimsInSeveralQueuesAtOnceEachUpToItsLimitAfterItsOwnKeyWithItsOwnDeadline() {
        List<NewJob> jobs = new ArrayList<>();
        for (String queue : List.of("a", "b", "c")) {
            for (int i = 0; i < 3; i++) {
                jobs.add(new NewJob("k", queue, "{}", 2, 25, null));
            }
        }
        List<Long> ids = tx.inNewTransaction(sql -> JobStore.insert(sql, jobs)).stream()
                .map(JobStore.Inserted::id).toList();
        ClaimedJob firstOfB = tx.inNewTransaction(sql -> JobStore.claim(sql, "b", 1, "me", 60_000)).get(0);
        tx.inNewTransaction(sql -> {
            JobStore.setPaused(sql, "c", true);
            return null;
        });
        // Put b's first job back: the claim of b starts after its key, so it must not see it.
        tx.inNewTransaction(sql -> sql.update("UPDATE weir.jobs SET state = 'available' WHERE id = ?1", firstOfB.id()));
        JobStore.Turn turn = tx.alone(sql -> JobStore.turn(sql, List.of(), List.of(
                new JobStore.ClaimRequest("a", 2, "me", 60_000, ClaimKey.START),
                new JobStore.ClaimRequest("b", 5, "me", 3_600_000, firstOfB.key()),
                new JobStore.ClaimRequest("c", 5, "me", 60_000, ClaimKey.START))));
        Map<String, List<Long>> byQueue = new java.util.TreeMap<>();
        for (ClaimedJob job : turn.claimed()) {
            byQueue.computeIfAbsent(job.queue(), q -> new ArrayList<>()).add(job.id());
        }
        assertEquals(Map.of("a", ids.subList(0, 2), "b", ids.subList(4, 6)), byQueue,
                "two of a, b's jobs after its key, none of the paused c");
        assertEquals("available", state(firstOfB.id()));
        // Each queue's attempts carry that queue's deadline.
        assertEquals(1, count("SELECT count(*) FROM weir.jobs WHERE id = " + ids.get(0)
                + " AND deadline_at < now() + interval '2 minutes'"));
        assertEquals(1, count("SELECT count(*) FROM weir.jobs WHERE id = " + ids.get(4)
                + " AND deadline_at > now() + interval '50 minutes'"));
        assertThrows(IllegalArgumentException.class, () -> tx.alone(sql -> JobStore.turn(sql, List.of(), List.of(
                new JobStore.ClaimRequest("a", 1, "me", 60_000, ClaimKey.START),
                new JobStore.ClaimRequest("b", 1, "someone else", 60_000, ClaimKey.START)))));
    }

    @Test
    void aClaimFromAPartOfTheQueueTakesOnlyThatPartsJobsInClaimOrder() {
        List<Long> ids = insert(10, "k");
        // A completer lane's renewal while two lanes carry attempts (ADR 0032): ids of one remainder only.
        JobStore.Turn odd = tx.alone(sql -> JobStore.turn(sql, List.of(), List.of(
                new JobStore.ClaimRequest("default", 3, "me", 60_000, ClaimKey.START, 1, 2))));
        List<Long> expected = ids.stream().filter(id -> id % 2 == 1).limit(3).toList();
        assertEquals(expected, odd.claimed().stream().map(ClaimedJob::id).toList());
        JobStore.Turn even = tx.alone(sql -> JobStore.turn(sql, List.of(), List.of(
                new JobStore.ClaimRequest("default", 10, "me", 60_000, ClaimKey.START, 0, 2))));
        assertEquals(ids.stream().filter(id -> id % 2 == 0).toList(),
                even.claimed().stream().map(ClaimedJob::id).toList(), "every even job, and no more");
        // The whole queue (0 of 1) takes what is left of both.
        List<Long> left = new ArrayList<>(ids);
        left.removeAll(expected);
        left.removeAll(even.claimed().stream().map(ClaimedJob::id).toList());
        assertEquals(left, tx.alone(sql -> JobStore.claim(sql, "default", 10, "me", 60_000)).stream()
                .map(ClaimedJob::id).toList());
        assertThrows(IllegalArgumentException.class,
                () -> new JobStore.ClaimRequest("default", 1, "me", 60_000, ClaimKey.START, 2, 2));
    }

    @Test
    void aTurnThatFailsLeavesNothingBehind() {
        List<Long> ids = insert(2, "k");
        ClaimedJob running = tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 1, "me", 60_000)).get(0);
        Finish completed = new Finish(running.id(), running.lease(), JobState.COMPLETED, 0, null, false);
        // The claim part fails (a deadline too large for an interval): the outcome part must not have applied.
        assertThrows(RuntimeException.class, () -> tx.alone(sql -> JobStore.turn(sql, List.of(completed),
                new JobStore.ClaimRequest("default", 1, "me", Long.MAX_VALUE, ClaimKey.START))));
        assertEquals("running", state(running.id()));
        assertEquals("available", state(ids.get(1)));
    }

    /**
     * A row another transaction holds when the turn reaches it is judged on the version that transaction commits, not
     * on the turn's snapshot: an operator's cancel request committed meanwhile turns a failure into a cancel, and a
     * lease that moved on meanwhile makes the outcome a late one.
     */
    @Test
    void aTurnThatWaitsForARowJudgesItByWhatWasCommittedMeanwhile() throws Exception {
        List<ClaimedJob> running = twoRunning();
        ClaimedJob cancelled = running.get(0);
        ClaimedJob movedOn = running.get(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection other = TestDatabase.dataSource().getConnection(); Statement s = other.createStatement()) {
            other.setAutoCommit(false);
            s.executeUpdate("UPDATE weir.jobs SET cancel_requested_at = now() WHERE id = " + cancelled.id());
            s.executeUpdate("UPDATE weir.jobs SET run_lease = run_lease + 1 WHERE id = " + movedOn.id());
            // Outcomes in the order opposite to the ids: the turn locks its rows in id order whatever it is given.
            Future<JobStore.Turn> turn = pool.submit(() -> tx.alone(sql -> JobStore.turn(sql, List.of(
                    new Finish(movedOn.id(), movedOn.lease(), JobState.COMPLETED, 0, null, false),
                    new Finish(cancelled.id(), cancelled.lease(), JobState.RETRYABLE, 0, "boom", false)),
                    List.of())));
            // The turn is known by its first words: pg_stat_activity keeps only the first 1024 bytes of a statement.
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10)).until(() -> {
                assertFalse(turn.isDone(), "the turn did not wait for the rows the other transaction holds");
                return count("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                        + " AND wait_event_type = 'Lock' AND query LIKE 'WITH relaxed AS%'") > 0;
            });
            other.commit();
            assertEquals(Map.of(cancelled.id(), JobState.CANCELLED), turn.get().finished(),
                    "the cancel request committed meanwhile applies; the outcome of the moved-on lease does not");
        } finally {
            pool.shutdownNow();
        }
        JobView view = tx.inNewTransaction(sql -> JobStore.get(sql, cancelled.id())).orElseThrow();
        assertEquals(JobState.CANCELLED, view.state());
        assertTrue(view.finalizedAt() != null);
        assertTrue(view.errorsJson().contains("cancelled by an operator (the attempt ended: boom)"), view.errorsJson());
        assertEquals("running", state(movedOn.id()), "a late outcome changes nothing");
    }

    @Test
    void lateOutcomeOfARescuedAttemptChangesNothing() {
        long id = insert(1, "k").get(0);
        ClaimedJob attempt1 = tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 1, "ghost", 60_000)).get(0);
        // "ghost" never wrote a heartbeat: the rescuer takes its job back.
        Map<Long, JobState> rescued = tx.inNewTransaction(sql -> JobStore.rescue(sql, 60_000, 60_000, 100));
        assertEquals(Map.of(id, JobState.AVAILABLE), rescued);

        Finish late = new Finish(id, attempt1.lease(), JobState.COMPLETED, 0, null, false);
        assertEquals(Set.of(), tx.inNewTransaction(sql -> JobStore.finish(sql, List.of(late))));
        assertEquals("available", state(id));

        ClaimedJob attempt2 = tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 1, "me", 60_000)).get(0);
        assertEquals(2, attempt2.attempt(), "rescue spent the first attempt");
        assertEquals(Set.of(), tx.inNewTransaction(sql -> JobStore.finish(sql, List.of(late))),
                "the old lease cannot finish the new attempt");
        assertEquals("running", state(id));
        Finish current = new Finish(id, attempt2.lease(), JobState.COMPLETED, 0, null, false);
        assertEquals(Set.of(id), tx.inNewTransaction(sql -> JobStore.finish(sql, List.of(current))));
        JobView view = tx.inNewTransaction(sql -> JobStore.get(sql, id)).orElseThrow();
        assertEquals(JobState.COMPLETED, view.state());
        assertTrue(view.errorsJson().contains("stopped sending heartbeats"), view.errorsJson());
    }

    @Test
    void rescueOfTheLastAttemptDiscards() {
        long id = tx.inNewTransaction(sql -> JobStore.insert(sql,
                List.of(new NewJob("k", "default", "{}", 2, 1, null)))).get(0).id();
        tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 1, "ghost", 60_000));
        assertEquals(Map.of(id, JobState.DISCARDED), tx.inNewTransaction(sql -> JobStore.rescue(sql, 1, 1, 10)));
    }

    @Test
    void liveOwnerKeepsItsJobs() {
        long id = insert(1, "k").get(0);
        tx.inNewTransaction(sql -> JobStore.heartbeat(sql, "alive", 60_000));
        tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 1, "alive", 60_000));
        assertEquals(Map.of(), tx.inNewTransaction(sql -> JobStore.rescue(sql, 60_000, 1000, 10)));
        assertEquals("running", state(id));
    }

    /** The heartbeat answers whether another instance wrote one within the window: its own does not count. */
    @Test
    void theHeartbeatTellsWhetherAnotherInstanceIsAlive() {
        tx.inNewTransaction(sql -> sql.update("DELETE FROM weir.instances"));
        assertFalse(heartbeat("me", 60_000), "alone");
        assertFalse(heartbeat("me", 60_000), "its own earlier heartbeat");
        tx.inNewTransaction(sql -> sql.update("INSERT INTO weir.instances (id, started_at, heartbeat_at)"
                + " VALUES ('silent', now() - interval '10 minutes', now() - interval '2 minutes')"));
        assertFalse(heartbeat("me", 60_000), "silent for longer than 60 s");
        assertTrue(heartbeat("me", 180_000), "within 180 s");
        assertTrue(heartbeat("other", 60_000), "me, a moment ago");
        assertEquals(2, count("SELECT count(*) FROM weir.instances WHERE heartbeat_at > now() - interval '1 minute'"));
    }

    private boolean heartbeat(String instance, long aliveMs) {
        return tx.inNewTransaction(sql -> JobStore.heartbeat(sql, instance, aliveMs));
    }

    @Test
    void outcomesOfABatchApplyTogetherWithErrorHistory() {
        List<Long> ids = insert(4, "k");
        List<ClaimedJob> claimed = tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 4, "me", 60_000));
        List<Finish> outcomes = List.of(
                new Finish(claimed.get(0).id(), claimed.get(0).lease(), JobState.COMPLETED, 0, null, false),
                new Finish(claimed.get(1).id(), claimed.get(1).lease(), JobState.RETRYABLE, 60_000, "boom \"quoted\"", false),
                new Finish(claimed.get(2).id(), claimed.get(2).lease(), JobState.SCHEDULED, 60_000, null, true),
                new Finish(claimed.get(3).id(), claimed.get(3).lease(), JobState.DISCARDED, 0, "bad ☃ input", false));
        assertEquals(new HashSet<>(ids), tx.inNewTransaction(sql -> JobStore.finish(sql, outcomes)));
        JobView retry = tx.inNewTransaction(sql -> JobStore.get(sql, claimed.get(1).id())).orElseThrow();
        assertEquals(JobState.RETRYABLE, retry.state());
        assertTrue(retry.errorsJson().contains("boom \\\"quoted\\\""), retry.errorsJson());
        assertTrue(retry.runAt().isAfter(java.time.Instant.now().plusSeconds(30)));
        JobView snoozed = tx.inNewTransaction(sql -> JobStore.get(sql, claimed.get(2).id())).orElseThrow();
        assertEquals(0, snoozed.attempt(), "snooze gives the attempt back");
        JobView discarded = tx.inNewTransaction(sql -> JobStore.get(sql, claimed.get(3).id())).orElseThrow();
        assertTrue(discarded.finalizedAt() != null && discarded.errorsJson().contains("☃"));
    }

    @Test
    void dueJobsArePromoted() {
        long id = tx.inNewTransaction(sql -> JobStore.insert(sql, List.of(
                new NewJob("k", "default", "{}", 2, 25, java.time.Instant.now().minusSeconds(1)),
                new NewJob("k", "default", "{}", 2, 25, java.time.Instant.now().plusSeconds(3600))))).get(1).id();
        assertEquals("scheduled", state(id));
        assertEquals(0, (int) tx.inNewTransaction(sql -> JobStore.promoteDue(sql, 100)),
                "a job whose run-at has passed is inserted available; the future one waits");
        update("UPDATE weir.jobs SET run_at = now() - interval '1 second' WHERE id = " + id);
        assertEquals(1, (int) tx.inNewTransaction(sql -> JobStore.promoteDue(sql, 100)));
        assertEquals("available", state(id));
    }

    @Test
    void retentionDeletesOnlyOldJobsOfTheGivenStateOldestFirstAndAtMostTheLimit() {
        List<Long> ids = insert(6, "k");
        // 0–2 completed long ago (2 the oldest), 3 completed just now, 4 discarded long ago, 5 still available.
        update("UPDATE weir.jobs SET state = 'completed', finalized_at = now() - interval '2 hours' - id * interval '1 second'"
                + " WHERE id IN (" + ids.get(0) + "," + ids.get(1) + "," + ids.get(2) + ")");
        update("UPDATE weir.jobs SET state = 'completed', finalized_at = now() WHERE id = " + ids.get(3));
        update("UPDATE weir.jobs SET state = 'discarded', finalized_at = now() - interval '2 hours' WHERE id = "
                + ids.get(4));
        long hour = Duration.ofHours(1).toMillis();

        assertEquals(2, (int) tx.inNewTransaction(sql -> JobStore.deleteFinished(sql, JobState.COMPLETED, hour, 2)));
        assertEquals(List.of(ids.get(0), ids.get(3), ids.get(4), ids.get(5)), remaining(ids),
                "the two oldest old completed jobs went, ids " + ids.get(2) + " and " + ids.get(1));
        assertEquals(1, (int) tx.inNewTransaction(sql -> JobStore.deleteFinished(sql, JobState.COMPLETED, hour, 2)));
        assertEquals(0, (int) tx.inNewTransaction(sql -> JobStore.deleteFinished(sql, JobState.COMPLETED, hour, 2)),
                "the recent completed job stays");
        assertEquals(1, (int) tx.inNewTransaction(sql -> JobStore.deleteFinished(sql, JobState.DISCARDED, hour, 10)));
        assertEquals(List.of(ids.get(3), ids.get(5)), remaining(ids));
        assertThrows(IllegalArgumentException.class,
                () -> tx.inNewTransaction(sql -> JobStore.deleteFinished(sql, JobState.AVAILABLE, 0, 10)));
    }

    @Test
    void agingMovesWaitingJobsUpOneLevelPerPeriodAndARetryStartsOver() {
        long young = insertWithPriority(4);
        long old = insertWithPriority(4);
        long top = insertWithPriority(1);
        update("UPDATE weir.jobs SET run_at = now() - interval '25 seconds' WHERE id IN (" + old + "," + top + ")");
        long tenSeconds = Duration.ofSeconds(10).toMillis();
        // One level per call and period waited: 25 s of waiting earn two levels at 10 s each, not three.
        assertEquals(1, age(4, tenSeconds));
        assertEquals(3, priority(old));
        assertEquals(1, age(3, tenSeconds));
        assertEquals(2, priority(old));
        assertEquals(0, age(2, tenSeconds), "a third level needs 30 s of waiting");
        assertEquals(4, priority(young), "a job that has not waited a period stays");
        assertEquals(1, priority(top));

        // A retry starts a new wait at the submitted priority.
        List<ClaimedJob> claimed = tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 3, "me", 60_000));
        ClaimedJob job = claimed.stream().filter(c -> c.id() == old).findFirst().orElseThrow();
        assertEquals(2, job.priority(), "aged jobs are claimed at their new priority");
        tx.inNewTransaction(sql -> JobStore.finish(sql, List.of(new Finish(job.id(), job.lease(), JobState.AVAILABLE,
                0, "try again", false))));
        assertEquals(4, priority(old));
    }

    @Test
    void progressIsWrittenOnlyByTheAttemptThatRuns() {
        long id = insert(1, "k").get(0);
        ClaimedJob first = tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 1, "me", 60_000)).get(0);
        Progress p = new Progress(10, "it's \"quoted\"", "[1, \"a\"]");
        assertTrue(progress(id, first.lease(), p));
        assertFalse(progress(id, first.lease() + 1, p), "another lease");
        String stored = tx.inNewTransaction(sql -> JobStore.get(sql, id)).orElseThrow().progressJson();
        assertTrue(stored.contains("it's \\\"quoted\\\"") && stored.contains("[1, \"a\"]"), stored);
        tx.inNewTransaction(sql -> JobStore.finish(sql, List.of(new Finish(id, first.lease(), JobState.AVAILABLE, 0,
                "again", false))));
        assertFalse(progress(id, first.lease(), p), "the attempt ended");
        ClaimedJob second = tx.inNewTransaction(sql -> JobStore.claim(sql, "default", 1, "me", 60_000)).get(0);
        assertEquals("[1, \"a\"]", second.checkpointJson(), "a new attempt is handed the checkpoint");
    }

    @Test
    void aPeriodicFireHappensOnceHoweverManyTryIt() throws Exception {
        java.time.Instant due = java.time.Instant.now().minusSeconds(5).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        tx.inNewTransaction(sql -> {
            JobStore.registerPeriodic(sql, "tick", "* * * * *", "UTC", due);
            return null;
        });
        Map<String, Long> dueNow = tx.inNewTransaction(JobStore::duePeriodic);
        assertEquals(Map.of("tick", due.getEpochSecond()), dueNow);
        long next = due.getEpochSecond() + 60;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<java.util.Optional<Long>>> tries = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            tries.add(pool.submit(() -> {
                go.await();
                return tx.inNewTransaction(sql -> JobStore.firePeriodic(sql, "tick", due.getEpochSecond(), next,
                        "periodic.kind", "default", "{\"a\": 1}"));
            }));
        }
        go.countDown();
        int fired = 0;
        for (Future<java.util.Optional<Long>> f : tries) {
            fired += f.get().isPresent() ? 1 : 0;
        }
        pool.shutdown();
        assertEquals(1, fired, "one fire, one job");
        assertEquals(1, count("SELECT count(*) FROM weir.jobs WHERE kind = 'periodic.kind' AND state = 'available'"));
        assertEquals(Map.of(), tx.inNewTransaction(JobStore::duePeriodic), "the next fire is a minute later");

        // A restart with the same schedule keeps the next fire; a new schedule starts over.
        java.time.Instant other = due.plusSeconds(3600);
        tx.inNewTransaction(sql -> {
            JobStore.registerPeriodic(sql, "tick", "* * * * *", "UTC", other);
            return null;
        });
        assertEquals(next, count("SELECT extract(epoch FROM next_fire_at)::bigint FROM weir.periodic_jobs"));
        tx.inNewTransaction(sql -> {
            JobStore.registerPeriodic(sql, "tick", "*/5 * * * *", "UTC", other);
            return null;
        });
        assertEquals(other.getEpochSecond(),
                count("SELECT extract(epoch FROM next_fire_at)::bigint FROM weir.periodic_jobs"));
    }

    private NewJob uniqueJob(String args, java.util.List<String> states) {
        String key = dev.weir.submit.UniqueKey.of(dev.weir.api.Unique.sameArgs(), "u", "default", args,
                java.time.Instant.now());
        return new NewJob("u", "default", args, 2, 25, null, key, states);
    }

    @Test
    void uniqueJobsAreInsertedOnceUnderConcurrencyAndFreedWhenFinished() throws Exception {
        NewJob job = uniqueJob("{\"n\": 1}", dev.weir.api.Unique.UNFINISHED);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<JobStore.Inserted>> tries = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            tries.add(pool.submit(() -> {
                go.await();
                return tx.inNewTransaction(sql -> JobStore.insertUnique(sql, job));
            }));
        }
        go.countDown();
        Set<Long> ids = new HashSet<>();
        int fresh = 0;
        for (Future<JobStore.Inserted> f : tries) {
            ids.add(f.get().id());
            fresh += f.get().duplicate() ? 0 : 1;
        }
        pool.shutdown();
        assertEquals(1, fresh, "one insert, seven duplicates");
        assertEquals(1, ids.size(), "every answer names the same job");
        long id = ids.iterator().next();
        assertEquals(1, count("SELECT count(*) FROM weir.jobs WHERE kind = 'u'"));
        assertTrue(tx.inNewTransaction(sql -> JobStore.insertUnique(sql, uniqueJob("{\"n\": 2}",
                dev.weir.api.Unique.UNFINISHED))).id() != id, "other args, other key");

        // Finished (outside its states), the key is free again.
        update("UPDATE weir.jobs SET state = 'completed', finalized_at = now() WHERE id = " + id);
        JobStore.Inserted again = tx.inNewTransaction(sql -> JobStore.insertUnique(sql, job));
        assertFalse(again.duplicate());
        // Unless completed is one of its states.
        NewJob once = uniqueJob("{\"n\": 3}", java.util.List.of("scheduled", "available", "running", "retryable",
                "completed"));
        long first = tx.inNewTransaction(sql -> JobStore.insertUnique(sql, once)).id();
        update("UPDATE weir.jobs SET state = 'completed', finalized_at = now() WHERE id = " + first);
        JobStore.Inserted dup = tx.inNewTransaction(sql -> JobStore.insertUnique(sql, once));
        assertTrue(dup.duplicate());
        assertEquals(first, dup.id());
        assertEquals(JobState.COMPLETED, dup.state());
    }

    @Test
    void aRolledBackUniqueInsertLeavesTheKeyFree() {
        NewJob job = uniqueJob("{\"n\": 9}", dev.weir.api.Unique.UNFINISHED);
        assertThrows(IllegalStateException.class, () -> tx.inNewTransaction(sql -> {
            JobStore.insertUnique(sql, job);
            throw new IllegalStateException("roll back");
        }));
        assertFalse(tx.inNewTransaction(sql -> JobStore.insertUnique(sql, job)).duplicate());
    }

    private boolean progress(long id, long lease, Progress p) {
        return tx.inNewTransaction(sql -> JobStore.progress(sql, id, lease, p));
    }

    private long insertWithPriority(int priority) {
        return tx.inNewTransaction(sql -> JobStore.insert(sql,
                List.of(new NewJob("k", "default", "{}", priority, 25, null)))).get(0).id();
    }

    private int age(int priority, long agingMs) {
        return tx.inNewTransaction(sql -> JobStore.age(sql, "default", priority, agingMs, 100));
    }

    private int priority(long id) {
        return tx.inNewTransaction(sql -> JobStore.get(sql, id)).orElseThrow().priority();
    }

    private List<Long> remaining(List<Long> ids) {
        return ids.stream().filter(id -> tx.inNewTransaction(sql -> JobStore.get(sql, id)).isPresent()).toList();
    }

    @Test
    void insertKeepsSqlMetacharactersAndUnicodeIntact() {
        String kind = "k'; DROP TABLE weir.jobs; --\"\\ ✓";
        long id = tx.inNewTransaction(sql -> JobStore.insert(sql, List.of(
                new NewJob(kind, "default", "{\"s\":\"a'b\\\"c ✓\"}", 2, 25, null)))).get(0).id();
        JobView view = tx.inNewTransaction(sql -> JobStore.get(sql, id)).orElseThrow();
        assertEquals(kind, view.kind());
        assertTrue(view.argsJson().contains("a'b\\\"c ✓"), view.argsJson());
    }

    /**
     * The leader's rescue and promotion passes run on generic plans, mostly on tables without column statistics (a
     * new table; autovacuum off). With 228,000 jobs waiting the rescue's "ORDER BY id LIMIT" walked the whole primary
     * key, 110 ms twice a second per server (the promotion, of the same shape, was one guess away from it); what
     * they read must not grow with the jobs that are neither running nor waiting.
     */
    @Test
    void theLeadersPassesReadLittleOfABigTableWithoutStatistics() throws Exception {
        for (int i = 0; i < 10; i++) {
            insert(2_000, "backlog");
        }
        try (Connection c = TestDatabase.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("ALTER TABLE weir.jobs SET (autovacuum_enabled = false)");
            try {
                s.execute("DELETE FROM pg_statistic WHERE starelid = 'weir.jobs'::regclass");
                s.execute("VACUUM weir.jobs"); // as the leader's vacuum does: the table's size, no column statistics
                s.execute("SET plan_cache_mode = force_generic_plan");
                assertReadsFewBlocks(s, "rescue", "bigint, bigint, int", Queries.JOB_RESCUE, "30000, 60000, 1000");
                assertReadsFewBlocks(s, "promote", "int", Queries.JOB_PROMOTE_DUE, "1000");
            } finally {
                s.execute("ALTER TABLE weir.jobs RESET (autovacuum_enabled)");
            }
        }
    }

    @Test
    void theTurnsGenericPlanFindsItsRowsThroughTheIndexesWithOrWithoutStatistics() throws Exception {
        // The engine's sessions keep generic plans (ADR 0034): the turn's must stay linear in its batch whatever the
        // planner knows of the table. 100,000 waiting jobs in eight queues, analysed before any ran; then 100 of them
        // running, and a turn that brings 50 outcomes and claims 2 jobs in each queue. Before ADR 0034 the outcomes'
        // update read every running job through jobs_running and matched it against every locked row (7,400 rows
        // removed by join filters, twice the execution time).
        try (Connection c = TestDatabase.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO weir.jobs (kind, queue, state) SELECT 'k', 'q' || (i % 8), 'available'"
                    + " FROM generate_series(1, 100000)"
                    + " AS i");
            s.execute("ALTER TABLE weir.jobs SET (autovacuum_enabled = false)");
            try {
                s.execute("ANALYZE weir.jobs");
                List<Long> outcomes = fiftyOfAHundredRunning(s);
                String args = turnArgs(outcomes);
                s.execute("SET plan_cache_mode = force_generic_plan");
                Plan analysed = runGeneric(s, "turn_analysed", TURN_TYPES, Queries.JOB_TURN, args).answered(66);
                // A generic plan shows the parameter where a custom one shows the value.
                assertTrue(analysed.text().contains("($1)::bigint[]"), analysed.text());
                assertLinear(analysed);
                s.execute("DELETE FROM pg_statistic WHERE starelid = 'weir.jobs'::regclass");
                s.execute("VACUUM weir.jobs");
                assertLinear(runGeneric(s, "turn_without_statistics", TURN_TYPES, Queries.JOB_TURN, args)
                        .answered(66));
            } finally {
                s.execute("ALTER TABLE weir.jobs RESET (autovacuum_enabled)");
            }
        }
    }

    @Test
    void theTurnsGenericPlanMadeOnAnEmptyTableStillFindsItsRowsThroughTheIndexesOnceTheTableHasGrown()
            throws Exception {
        // A generic plan is made once, from the table's size when it is made, and kept until something invalidates
        // it; inserts do not. Made on an empty weir.jobs (a new deployment, a truncated table), the turn's plan read
        // the whole table twice per turn to find its rows by id, 5-220 ms a turn over 20,000-200,000 jobs in the
        // harness, until the leader's vacuum replanned it (ADR 0046). The engine's sessions, opened with the options
        // of the shipped server.xml, must not choose a sequential scan whatever the table's size was.
        try (Connection c = TestDatabase.dataSource(Map.of("options", ServerXml.dataSourceOptions("weir-engine")))
                .getConnection();
                Statement s = c.createStatement()) {
            s.execute("ALTER TABLE weir.jobs SET (autovacuum_enabled = false)"); // before the plan: it invalidates
            try {
                // Run once on the empty table, claiming nothing: the generic plan is made now.
                runGeneric(s, "turn_made_empty", TURN_TYPES, Queries.JOB_TURN,
                        "'{}', '{}', '{}', '{}', '{}', '{}', '[]', 'me'").answered(0);
                s.execute("INSERT INTO weir.jobs (kind, queue, state) SELECT 'k', 'q' || (i % 8), 'available'"
                        + " FROM generate_series(1, 100000) AS i");
                List<Long> outcomes = fiftyOfAHundredRunning(s);
                assertLinear(explainInRollback(s, "turn_made_empty", turnArgs(outcomes)).answered(66));
            } finally {
                s.execute("ALTER TABLE weir.jobs RESET (autovacuum_enabled)");
            }
        }
    }

    /** Sets the first 100 jobs running (owner {@code me}, lease 1) and answers the ids of the first 50 of them. */
    private static List<Long> fiftyOfAHundredRunning(Statement s) throws java.sql.SQLException {
        s.execute("UPDATE weir.jobs SET state = 'running', owner = 'me', run_lease = 1, attempt = 1"
                + " WHERE id IN (SELECT id FROM weir.jobs ORDER BY id LIMIT 100)");
        List<Long> outcomes = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT id FROM weir.jobs WHERE state = 'running' ORDER BY id LIMIT 50")) {
            while (rs.next()) {
                outcomes.add(rs.getLong(1));
            }
        }
        return outcomes;
    }

    /** The parameter types of the turn, prepared by hand: every argument as text, as the driver sends them. */
    private static final String TURN_TYPES = "text, text, text, text, text, text, text, text";

    /**
     * The arguments of a turn that brings the completed outcomes of {@code outcomes} (lease 1) and claims 2 jobs in
     * each of the queues {@code q0}…{@code q7}, for the owner {@code me}.
     */
    private static String turnArgs(List<Long> outcomes) {
        int n = outcomes.size();
        String ids = outcomes.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","));
        StringBuilder wanted = new StringBuilder("[");
        for (int q = 0; q < 8; q++) {
            wanted.append(q == 0 ? "" : ",").append("{\"queue\":\"q").append(q).append("\",\"n\":2,")
                    .append("\"deadline_ms\":60000,\"priority\":0,\"run_at_us\":0,\"id\":0,")
                    .append("\"part\":0,\"parts\":1}");
        }
        return "'{" + ids + "}', '{" + "1,".repeat(n - 1) + "1}', '{" + "completed,".repeat(n - 1) + "completed}', '{"
                + "0,".repeat(n - 1) + "0}', '{" + "NULL,".repeat(n - 1) + "NULL}', '{" + "f,".repeat(n - 1) + "f}', '"
                + wanted.append(']') + "', 'me'";
    }

    @Test
    void theLeadersBatchesFindTheirRowsByIdOnTheirGenericPlans() throws Exception {
        // 100,000 jobs completed two hours ago and 100,000 scheduled an hour ago, analysed. The generic plans guess
        // that a LIMIT keeps a tenth of what its scan finds; joined to the batch, the retention delete merge-joined it
        // along the primary key (82,000 entries read to delete 1,000) and the promotion hashed the whole table
        // (ADR 0034). Through id = ANY each writes only the rows of its batch.
        try (Connection c = TestDatabase.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO weir.jobs (kind, queue, state, attempt, attempted_at, finalized_at)"
                    + " SELECT 'k', 'default', 'completed', 1, now(), now() - interval '2 hours'"
                    + " FROM generate_series(1, 100000)");
            s.execute("INSERT INTO weir.jobs (kind, queue, state, run_at)"
                    + " SELECT 'k', 'default', 'scheduled', now() - interval '1 hour' FROM generate_series(1, 100000)");
            s.execute("ALTER TABLE weir.jobs SET (autovacuum_enabled = false)");
            try {
                s.execute("VACUUM ANALYZE weir.jobs");
                s.execute("SET plan_cache_mode = force_generic_plan");
                assertWritesThroughItsBatch(runGeneric(s, "retention", "text, bigint, int",
                        Queries.JOB_DELETE_FINISHED, "'completed', 3600000, 1000").answered(1));
                assertWritesThroughItsBatch(runGeneric(s, "promote", "int", Queries.JOB_PROMOTE_DUE, "1000")
                        .answered(1));
            } finally {
                s.execute("ALTER TABLE weir.jobs RESET (autovacuum_enabled)");
            }
        }
    }

    /** Fails when a node that reads the rows to write ({@code weir.jobs AS j}) read more than the batch of 1000. */
    private static void assertWritesThroughItsBatch(Plan plan) {
        assertTrue(mostRowsOfTheWrittenTable(plan.top()) <= 1_000, plan.text());
    }

    /** The most rows any node of the plan read from {@code weir.jobs AS j}, the table the statement writes. */
    private static long mostRowsOfTheWrittenTable(jakarta.json.JsonObject node) {
        long most = "jobs".equals(node.getString("Relation Name", "")) && "j".equals(node.getString("Alias", ""))
                ? node.getJsonNumber("Actual Rows").longValue() : 0;
        for (JsonValue child : node.getJsonArray("Plans") == null ? List.<JsonValue>of() : node.getJsonArray("Plans")) {
            most = Math.max(most, mostRowsOfTheWrittenTable(child.asJsonObject()));
        }
        return most;
    }

    /**
     * Fails when the plan reads the table sequentially, or when its joins compared rows pairwise: more rows removed
     * by join filters than a batch holds. (How many blocks the turn reads grows with its batch: each row it writes
     * touches its heap page and every index.)
     */
    private static void assertLinear(Plan plan) {
        assertFalse(plan.text().contains("\"Seq Scan\""), "a sequential scan: " + plan.text());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"Rows Removed by Join Filter\": (\\d+)")
                .matcher(plan.text());
        long removed = 0;
        while (m.find()) {
            removed += Long.parseLong(m.group(1));
        }
        assertTrue(removed < 100, removed + " rows removed by join filters: " + plan.text());
    }

    /**
     * Runs {@code sql} once on its generic plan, in a transaction rolled back; fails when it read 100 blocks or more.
     */
    private static void assertReadsFewBlocks(Statement s, String name, String types, String sql, String args)
            throws java.sql.SQLException {
        Plan plan = runGeneric(s, name, types, sql, args);
        long blocks = plan.top().getJsonNumber("Shared Hit Blocks").longValue()
                + plan.top().getJsonNumber("Shared Read Blocks").longValue();
        assertTrue(blocks < 100, name + " read " + blocks + " blocks of a table of 20,000 jobs: " + plan.text());
    }

    /** What {@code EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)} said: its text, and its top node. */
    private record Plan(String text, jakarta.json.JsonObject top) {

        /** Fails unless the statement answered {@code rows} rows. */
        Plan answered(long rows) {
            assertEquals(rows, top.getJsonNumber("Actual Rows").longValue(), text);
            return this;
        }
    }

    /** Runs {@code sql} once on its generic plan, in a transaction rolled back, and answers what it did. */
    private static Plan runGeneric(Statement s, String name, String types, String sql, String args)
            throws java.sql.SQLException {
        s.execute("PREPARE " + name + "(" + types + ") AS " + sql.replaceAll("\\?(\\d+)", "\\$$1"));
        return explainInRollback(s, name, args);
    }

    /** Runs the prepared statement {@code name} once, in a transaction rolled back, and answers what it did. */
    private static Plan explainInRollback(Statement s, String name, String args) throws java.sql.SQLException {
        s.execute("BEGIN");
        try {
            String text;
            try (ResultSet rs = s.executeQuery("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE " + name + "(" + args
                    + ")")) {
                rs.next();
                text = rs.getString(1);
            }
            try (JsonReader r = Json.createReader(new StringReader(text))) {
                return new Plan(text, r.readArray().getJsonObject(0).getJsonObject("Plan"));
            }
        } finally {
            s.execute("ROLLBACK");
        }
    }

    private long count(String sql) {
        try (Connection c = TestDatabase.dataSource().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void update(String sql) {
        tx.inNewTransaction(s -> s.update(sql));
    }
}
