package dev.weir.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GroupCommitTest {

    private final ExecutorService callers = Executors.newCachedThreadPool();
    /** Every group a runner was given, in the order the runs started. */
    private final List<List<String>> runs = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void stop() {
        callers.shutdownNow();
    }

    /** A runner that answers each request upper-cased, after {@code gate} opens. */
    private GroupCommit.Runner<String, String> upperCase(CountDownLatch gate) {
        return upperCaseFailing(gate, group -> false, null);
    }

    /** The same, but a group for which {@code when} holds throws {@code failure} instead. */
    private GroupCommit.Runner<String, String> upperCaseFailing(CountDownLatch gate, Predicate<List<String>> when,
            RuntimeException failure) {
        return group -> {
            runs.add(List.copyOf(group));
            await(gate);
            if (when.test(group)) {
                throw failure;
            }
            return group.stream().map(String::toUpperCase).toList();
        };
    }

    @Test
    void aCallerAloneRunsAGroupOfOneAtOnce() {
        GroupCommit<String, String> groups = new GroupCommit<>(2, 10, r -> 1, upperCase(new CountDownLatch(0)));
        assertEquals("A", groups.run("a"));
        assertEquals(List.of(List.of("a")), runs);
        assertEquals(new GroupCommit.Counts(1, 1), groups.counts());
    }

    /** With 40, the group's callers are woken as a tree several levels deep: every one of them must come back. */
    @ParameterizedTest
    @ValueSource(ints = {4, 40})
    void callersThatArriveWhileAGroupRunsShareTheNextOneAndEachGetsItsOwnAnswer(int n) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        GroupCommit<String, String> groups = new GroupCommit<>(1, 1000, r -> 1, upperCase(gate));
        CompletableFuture<String> first = call(groups, "a");
        waitUntil(() -> runs.size() == 1);
        List<String> requests = new ArrayList<>();
        List<CompletableFuture<String>> later = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            requests.add("r" + i);
            later.add(call(groups, "r" + i));
        }
        waitUntil(() -> groups.waiting() == n);
        assertEquals(1, runs.size(), "no second group while the only one allowed runs");
        gate.countDown();
        assertEquals("A", first.get(10, TimeUnit.SECONDS));
        List<String> answers = new ArrayList<>();
        for (CompletableFuture<String> f : later) {
            answers.add(f.get(10, TimeUnit.SECONDS));
        }
        assertEquals(requests.stream().map(String::toUpperCase).toList(), answers);
        assertEquals(2, runs.size(), "the " + n + " waiting callers shared one group: " + runs);
        assertEquals(requests.stream().sorted().toList(), runs.get(1).stream().sorted().toList());
        assertEquals(new GroupCommit.Counts(2, n + 1), groups.counts());
    }

    @Test
    void aGroupTakesTheOldestRequestsUpToItsWeightAndAHeavyRequestGoesAlone() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        GroupCommit<String, String> groups = new GroupCommit<>(1, 4, String::length, upperCase(gate));
        CompletableFuture<String> blocker = call(groups, "x");
        waitUntil(() -> runs.size() == 1);
        List<CompletableFuture<String>> later = new ArrayList<>();
        for (String r : List.of("aa", "bb", "cc", "dddddd")) {
            later.add(queued(groups, r, later.size() + 1));
        }
        gate.countDown();
        blocker.get(10, TimeUnit.SECONDS);
        for (CompletableFuture<String> f : later) {
            f.get(10, TimeUnit.SECONDS);
        }
        assertEquals(List.of(List.of("x"), List.of("aa", "bb"), List.of("cc"), List.of("dddddd")), runs);
    }

    @Test
    void aGroupThatRolledBackRunsEachRequestAloneSoThatOnlyTheBadOneFails() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        IllegalArgumentException bad = new IllegalArgumentException("bad request");
        GroupCommit<String, String> groups = new GroupCommit<>(1, 10, r -> 1,
                upperCaseFailing(gate, group -> group.contains("bad"), new GroupCommit.Uncommitted(bad)));
        CompletableFuture<String> blocker = call(groups, "x");
        waitUntil(() -> runs.size() == 1);
        CompletableFuture<String> a = call(groups, "a");
        CompletableFuture<String> b = call(groups, "bad");
        CompletableFuture<String> c = call(groups, "c");
        waitUntil(() -> groups.waiting() == 3);
        gate.countDown();
        assertEquals("X", blocker.get(10, TimeUnit.SECONDS));
        assertEquals("A", a.get(10, TimeUnit.SECONDS));
        assertEquals("C", c.get(10, TimeUnit.SECONDS));
        ExecutionException e = assertThrows(ExecutionException.class, () -> b.get(10, TimeUnit.SECONDS));
        assertSame(bad, e.getCause(), "the caller gets the cause, not the wrapper");
        assertEquals(List.of("a", "bad", "c"), runs.get(1).stream().sorted().toList());
        assertEquals(5, runs.size(), "the group, then each of its three alone: " + runs);
        assertTrue(runs.subList(2, 5).containsAll(List.of(List.of("a"), List.of("bad"), List.of("c"))), "" + runs);
    }

    @Test
    void aRequestTheGroupLeftUnansweredIsRunAloneByItsCaller() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        // A group that finds no room for "full" answers the others and leaves it; alone, it is answered.
        GroupCommit.Runner<String, String> runner = group -> {
            runs.add(List.copyOf(group));
            await(gate);
            return group.stream().map(r -> group.size() > 1 && r.equals("full") ? null : r.toUpperCase()).toList();
        };
        GroupCommit<String, String> groups = new GroupCommit<>(1, 10, r -> 1, runner);
        CompletableFuture<String> blocker = call(groups, "x");
        waitUntil(() -> runs.size() == 1);
        CompletableFuture<String> a = call(groups, "a");
        CompletableFuture<String> full = call(groups, "full");
        waitUntil(() -> groups.waiting() == 2);
        gate.countDown();
        assertEquals("X", blocker.get(10, TimeUnit.SECONDS));
        assertEquals("A", a.get(10, TimeUnit.SECONDS));
        assertEquals("FULL", full.get(10, TimeUnit.SECONDS));
        assertEquals(List.of(List.of("x"), List.of("a", "full"), List.of("full")),
                List.of(runs.get(0), runs.get(1).stream().sorted().toList(), runs.get(2)));
        assertEquals(new GroupCommit.Counts(3, 4), groups.counts());
    }

    @Test
    void aGroupOfOneMustAnswerItsRequest() {
        GroupCommit<String, String> groups = new GroupCommit<>(1, 10, r -> 1, group -> {
            List<String> none = new ArrayList<>();
            none.add(null);
            return none;
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> groups.run("a"));
        assertTrue(e.getMessage().contains("unanswered"), e.getMessage());
    }

    @Test
    void aFailedCommitReachesEveryCallerOfTheGroupAndIsNotRunAgain() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        IllegalStateException lost = new IllegalStateException("connection lost during commit");
        GroupCommit<String, String> groups = new GroupCommit<>(1, 10, r -> 1,
                upperCaseFailing(gate, group -> group.size() > 1, lost));
        CompletableFuture<String> blocker = call(groups, "x");
        waitUntil(() -> runs.size() == 1);
        CompletableFuture<String> a = call(groups, "a");
        CompletableFuture<String> b = call(groups, "b");
        waitUntil(() -> groups.waiting() == 2);
        gate.countDown();
        assertEquals("X", blocker.get(10, TimeUnit.SECONDS));
        for (CompletableFuture<String> f : List.of(a, b)) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
            assertSame(lost, e.getCause());
        }
        assertEquals(2, runs.size(), "whether the commit took effect is unknown, so nothing runs again: " + runs);
    }

    @Test
    void noMoreThanMaxGroupsRunAtOnce() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        GroupCommit<String, String> groups = new GroupCommit<>(2, 10, r -> 1, group -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            runs.add(List.copyOf(group));
            await(gate);
            running.decrementAndGet();
            return group;
        });
        CompletableFuture<String> a = call(groups, "a");
        waitUntil(() -> runs.size() == 1);
        CompletableFuture<String> b = call(groups, "b");
        waitUntil(() -> runs.size() == 2);
        CompletableFuture<String> c = queued(groups, "c", 1);
        assertEquals(2, runs.size(), "a third group waits for one of the two running");
        gate.countDown();
        assertEquals(List.of("a", "b", "c"), List.of(a.get(10, TimeUnit.SECONDS), b.get(10, TimeUnit.SECONDS),
                c.get(10, TimeUnit.SECONDS)));
        assertEquals(2, most.get());
    }

    @Test
    void manyCallersEachGetTheirOwnAnswer() throws Exception {
        manyCallers(new GroupCommit<>(2, 7, r -> 1, upperCase(new CountDownLatch(0))), 7);
    }

    /**
     * Callers submitting again and again while groups gather, stagger and run beside each other, each group taking a
     * little while: every call is answered (a caller left asleep with nobody to wake it would time out here).
     */
    @ParameterizedTest
    @CsvSource({"2, 7, 3, true", "3, 4, 2, false", "3, 4, 1, true", "1, 16, 1, true"})
    void manyCallersOfGroupsThatTakeTimeEachGetTheirOwnAnswer(int maxGroups, int maxWeight, int parallelWeight,
            boolean gatherAll) throws Exception {
        GroupCommit.Runner<String, String> slow = group -> {
            runs.add(List.copyOf(group));
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100 + 50L * group.size()));
            return group.stream().map(String::toUpperCase).toList();
        };
        // Unless all do, the requests of seven threads of sixteen gather: groups of both kinds follow one another.
        manyCallers(new GroupCommit<>(maxGroups, maxWeight, parallelWeight, r -> 1,
                r -> gatherAll || r.startsWith("t1"), slow), maxWeight);
    }

    private void manyCallers(GroupCommit<String, String> groups, int maxWeight) throws Exception {
        List<CompletableFuture<List<String>>> threads = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            int thread = t;
            threads.add(CompletableFuture.supplyAsync(() -> {
                List<String> mismatches = new ArrayList<>();
                for (int i = 0; i < 500; i++) {
                    String request = "t" + thread + "-" + i;
                    String answer = groups.run(request);
                    if (!answer.equals(request.toUpperCase())) {
                        mismatches.add(request + " got " + answer);
                    }
                }
                return mismatches;
            }, callers));
        }
        for (CompletableFuture<List<String>> t : threads) {
            assertEquals(List.of(), t.get(60, TimeUnit.SECONDS));
        }
        assertEquals(16 * 500, groups.counts().requests());
        synchronized (runs) {
            assertTrue(runs.stream().allMatch(g -> g.size() <= maxWeight), "no group above its weight");
        }
    }

    @Test
    void lightWorkWaitsForTheRunningGroupAndASecondGroupStartsBesideItOnlyOnceEnoughIsWaiting() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        GroupCommit<String, String> groups = new GroupCommit<>(2, 10, 3, r -> 1, upperCase(gate));
        CompletableFuture<String> first = call(groups, "a");
        waitUntil(() -> runs.size() == 1);
        List<CompletableFuture<String>> later = new ArrayList<>();
        for (String r : List.of("b", "c")) {
            later.add(queued(groups, r, later.size() + 1));
        }
        // A caller decides under the lock as it queues: had "b" or "c" led, it would have left the queue at once.
        assertEquals(1, runs.size(), "a second place is free, but two waiting requests weigh less than three");
        later.add(call(groups, "d"));
        waitUntil(() -> runs.size() == 2);
        assertEquals(List.of("b", "c", "d"), runs.get(1), "the third request makes the weight: a second group starts");
        assertTrue(!first.isDone(), "beside the first group, still running");
        gate.countDown();
        assertEquals("A", first.get(10, TimeUnit.SECONDS));
        List<String> answers = new ArrayList<>();
        for (CompletableFuture<String> f : later) {
            answers.add(f.get(10, TimeUnit.SECONDS));
        }
        assertEquals(List.of("B", "C", "D"), answers);
    }

    @Test
    void lightWorkThatWaitedLeadsTheNextGroupOnceTheRunningOneEnds() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        GroupCommit<String, String> groups = new GroupCommit<>(2, 10, 3, r -> 1, upperCase(gate));
        CompletableFuture<String> first = call(groups, "a");
        waitUntil(() -> runs.size() == 1);
        CompletableFuture<String> second = queued(groups, "b", 1);
        gate.countDown();
        assertEquals("A", first.get(10, TimeUnit.SECONDS));
        assertEquals("B", second.get(10, TimeUnit.SECONDS));
        assertEquals(List.of(List.of("a"), List.of("b")), runs);
    }

    @Test
    void refusesNonsenseLimits() {
        assertThrows(IllegalArgumentException.class, () -> new GroupCommit<String, String>(0, 1, r -> 1, g -> g));
        assertThrows(IllegalArgumentException.class, () -> new GroupCommit<String, String>(1, 0, r -> 1, g -> g));
        assertThrows(IllegalArgumentException.class, () -> new GroupCommit<String, String>(1, 1, 0, r -> 1, g -> g));
    }

    /**
     * A clock that moves only when told to and counts its reads: a caller waiting for its group's start reads it each
     * time it wakes.
     */
    private static final class FakeClock implements LongSupplier {
        private final AtomicLong now = new AtomicLong(1_000_000_000L);
        private final AtomicInteger reads = new AtomicInteger();
        /** The threads that read the clock since {@link #forgetReaders}. */
        private final Set<Thread> readers = ConcurrentHashMap.newKeySet();

        @Override
        public long getAsLong() {
            readers.add(Thread.currentThread());
            reads.incrementAndGet();
            return now.get();
        }

        void forgetReaders() {
            readers.clear();
        }

        Set<Thread> readers() {
            return Set.copyOf(readers);
        }

        void advance(long nanos) {
            now.addAndGet(nanos);
        }

        /** Returns once the clock has been read {@code n} more times: a waiting caller woke, looked, and waits on. */
        void awaitReads(int n) throws InterruptedException {
            int from = reads.get();
            waitUntil(() -> reads.get() >= from + n);
        }
    }

    /**
     * A runner on a fake clock: a group of {@code "slow"} moves the clock on by {@code slowNanos} as it runs (so the
     * groups' typical time becomes that), a group holding {@code "hold"} waits for {@code gate}; others answer at once.
     */
    private GroupCommit.Runner<String, String> timed(FakeClock clock, long slowNanos, CountDownLatch gate) {
        return group -> {
            runs.add(List.copyOf(group));
            if (group.contains("slow")) {
                clock.advance(slowNanos);
            }
            if (group.contains("hold")) {
                await(gate);
            }
            return group.stream().map(String::toUpperCase).toList();
        };
    }

    /**
     * Runs {@code "slow"} alone, so that groups typically take as long as it moved the clock on, then starts a group of
     * {@code "hold"} (a {@link #timed} runner's, held until its gate opens); answers that call.
     */
    private CompletableFuture<String> slowThenHold(GroupCommit<String, String> groups) throws InterruptedException {
        assertEquals("SLOW", groups.run("slow"), "a caller alone runs at once: nothing runs, nothing to stagger");
        CompletableFuture<String> held = call(groups, "hold");
        waitUntil(() -> runs.size() == 2);
        return held;
    }

    /** Calls {@code request} and returns once it waits, the {@code n}-th waiting request. */
    private CompletableFuture<String> queued(GroupCommit<String, String> groups, String request, int n)
            throws InterruptedException {
        CompletableFuture<String> call = call(groups, request);
        waitUntil(() -> groups.waiting() == n);
        return call;
    }

    /**
     * A group {@code "hold"} running, after a first group made groups typically take {@code slowNanos}, and
     * {@code "b"} waiting to lead the next one.
     */
    private record Staged(FakeClock clock, CountDownLatch gate,
            CompletableFuture<String> held, CompletableFuture<String> next) {
    }

    private Staged holdOneAndCallAnother(long slowNanos) throws InterruptedException {
        FakeClock clock = new FakeClock();
        CountDownLatch gate = new CountDownLatch(1);
        GroupCommit<String, String> groups = new GroupCommit<>(2, 10, 1, r -> 1, r -> false,
                timed(clock, slowNanos, gate), clock);
        CompletableFuture<String> held = slowThenHold(groups);
        return new Staged(clock, gate, held, queued(groups, "b", 1));
    }

    @Test
    void whileOneGroupRunsTheNextStartsOnlyOnceTheFirstHasRunHalfATypicalGroupsTime() throws Exception {
        Staged s = holdOneAndCallAnother(TimeUnit.MICROSECONDS.toNanos(800));
        // The waiting caller wakes from its timed waits and reads the clock again; three times still too early.
        s.clock().awaitReads(3);
        assertEquals(2, runs.size(), "a second group may run, but not yet: the first one has only just started");
        s.clock().advance(TimeUnit.MICROSECONDS.toNanos(400));
        assertEquals("B", s.next().get(10, TimeUnit.SECONDS), "half of the typical 800 µs later, it starts");
        assertEquals(List.of("b"), runs.get(2));
        assertTrue(!s.held().isDone(), "while the first group still runs");
        s.gate().countDown();
        assertEquals("HOLD", s.held().get(10, TimeUnit.SECONDS));
    }

    @Test
    void whenALeaderLeavesCallersWaitingBesideARunningGroupTheNextStartsInTime() throws Exception {
        FakeClock clock = new FakeClock();
        CountDownLatch gate = new CountDownLatch(1);
        // Three groups at once, one request each: groups typically take 800 µs, so they start 266 µs apart.
        GroupCommit<String, String> groups = new GroupCommit<>(3, 1, 1, r -> 1, r -> false,
                timed(clock, TimeUnit.MICROSECONDS.toNanos(800), gate), clock);
        CompletableFuture<String> first = slowThenHold(groups);
        CompletableFuture<String> second = queued(groups, "hold", 1);
        CompletableFuture<String> third = queued(groups, "c", 2);
        clock.advance(TimeUnit.MICROSECONDS.toNanos(400));
        waitUntil(() -> runs.size() == 3);
        assertEquals(List.of("hold"), runs.get(2), "the next group took the oldest waiting request");
        clock.advance(TimeUnit.MICROSECONDS.toNanos(400));
        // Beside running groups every waiting caller keeps the time, so whichever of the two callers led (either may:
        // both watch the time) left the other waiting, and that one starts the group of "c" without being woken.
        // Whose thread runs it is not fixed, so the check is on the runs: "c"'s caller may be the one held by "hold".
        waitUntil(() -> runs.size() == 4);
        assertEquals(List.of("c"), runs.get(3), "a third group starts while the other two still run");
        assertTrue(!first.isDone() && !second.isDone());
        gate.countDown();
        assertEquals("HOLD", first.get(10, TimeUnit.SECONDS));
        assertEquals("HOLD", second.get(10, TimeUnit.SECONDS));
        assertEquals("C", third.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aCallerLeadingAnotherGroupDoesNotHoldUpTheWakingOfItsOwnGroup() throws Exception {
        // Group A's callers may lead the next group while A runs. One that leads group B (held open here) cannot wake
        // the callers after it in A's tree until B ends, so they must be woken in its place. Which caller leads B is
        // not fixed, so the scene is played again until it has been one of A's callers with others after it, an
        // inner place of A's tree.
        int inner = 0;
        for (int round = 0; round < 60 && inner < 3; round++) {
            runs.clear();
            FakeClock clock = new FakeClock();
            CountDownLatch holdGate = new CountDownLatch(1);
            CountDownLatch aGate = new CountDownLatch(1);
            CountDownLatch bGate = new CountDownLatch(1);
            Map<String, Thread> leaders = new ConcurrentHashMap<>();
            GroupCommit<String, String> groups = new GroupCommit<>(3, 7, 1, r -> 1, r -> false, group -> {
                runs.add(List.copyOf(group));
                leaders.put(group.get(0), Thread.currentThread());
                if (group.contains("slow")) {
                    clock.advance(TimeUnit.MICROSECONDS.toNanos(800));
                }
                await(group.contains("hold") ? holdGate : group.contains("b") ? bGate
                        : group.contains("a0") ? aGate : new CountDownLatch(0));
                return group.stream().map(String::toUpperCase).toList();
            }, clock);
            CompletableFuture<String> held = slowThenHold(groups);
            Map<String, Thread> callerThreads = new ConcurrentHashMap<>();
            List<CompletableFuture<String>> a = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                String request = "a" + i;
                a.add(CompletableFuture.supplyAsync(() -> {
                    callerThreads.put(request, Thread.currentThread());
                    return groups.run(request);
                }, callers));
                waitUntil(() -> groups.waiting() == a.size());
            }
            // "b" waits too, so that A's callers keep watching the time while A runs (a group takes at most 7).
            CompletableFuture<String> b = queued(groups, "b", 8);
            clock.advance(TimeUnit.MICROSECONDS.toNanos(400));
            waitUntil(() -> runs.size() == 3);
            assertEquals(List.of("a0", "a1", "a2", "a3", "a4", "a5", "a6"), runs.get(2), "A took the oldest seven");
            clock.advance(TimeUnit.MICROSECONDS.toNanos(400));
            waitUntil(() -> runs.size() == 4);
            assertEquals(List.of("b"), runs.get(3));
            Thread bLeader = leaders.get("b");
            for (int i = 0; i < 3; i++) {
                if (bLeader == callerThreads.get("a" + i)) {
                    inner++;
                }
            }
            aGate.countDown();
            for (int i = 0; i < 7; i++) {
                if (callerThreads.get("a" + i) != bLeader) {
                    assertEquals("A" + i, a.get(i).get(10, TimeUnit.SECONDS), "a" + i + ", while B still runs");
                }
            }
            bGate.countDown();
            holdGate.countDown();
            assertEquals("B", b.get(10, TimeUnit.SECONDS));
            assertEquals("HOLD", held.get(10, TimeUnit.SECONDS));
            for (int i = 0; i < 7; i++) {
                assertEquals("A" + i, a.get(i).get(10, TimeUnit.SECONDS));
            }
        }
        assertTrue(inner > 0, "in 60 rounds no caller at an inner place of A's tree led B");
    }

    @Test
    void theStaggerIsCappedSoThatOneSlowGroupDoesNotHoldTheNextOnesBackForLong() throws Exception {
        Staged s = holdOneAndCallAnother(TimeUnit.SECONDS.toNanos(10));
        s.clock().advance(GroupCommit.MAX_STAGGER_NANOS);
        assertEquals("B", s.next().get(10, TimeUnit.SECONDS), "held back at most MAX_STAGGER_NANOS, not half of 10 s");
        s.gate().countDown();
        s.held().get(10, TimeUnit.SECONDS);
    }

    /**
     * One group at a time on a frozen fake clock, groups typically taking 800 µs: {@code "hold"} ran and ended while
     * {@code "x"} and {@code "y"} waited.
     */
    private record Gathering(GroupCommit<String, String> groups, FakeClock clock, CompletableFuture<String> x,
            CompletableFuture<String> y) {
    }

    private Gathering endAGroupWithTwoWaiting(Predicate<String> gathers) throws Exception {
        FakeClock clock = new FakeClock();
        CountDownLatch gate = new CountDownLatch(1);
        GroupCommit<String, String> groups = new GroupCommit<>(1, 10, 1, r -> 1, gathers,
                timed(clock, TimeUnit.MICROSECONDS.toNanos(800), gate), clock);
        CompletableFuture<String> held = slowThenHold(groups);
        CompletableFuture<String> x = queued(groups, "x", 1);
        CompletableFuture<String> y = queued(groups, "y", 2);
        gate.countDown();
        assertEquals("HOLD", held.get(10, TimeUnit.SECONDS));
        return new Gathering(groups, clock, x, y);
    }

    /** {@code "hold"}'s group gathers: {@code "x"} now waits for the caller it set free. */
    private Gathering endAGatheringGroupWithTwoWaiting() throws Exception {
        Gathering g = endAGroupWithTwoWaiting(r -> r.equals("hold"));
        g.clock().awaitReads(3);
        return g;
    }

    @Test
    void withNoGroupRunningTheNextWaitsForTheCallersTheLastOneSetFree() throws Exception {
        Gathering g = endAGatheringGroupWithTwoWaiting();
        assertEquals(2, runs.size(), "the group that ended had one caller, and it is not back yet: nothing starts");
        CompletableFuture<String> back = call(g.groups(), "z");
        assertEquals("X", g.x().get(10, TimeUnit.SECONDS));
        assertEquals("Y", g.y().get(10, TimeUnit.SECONDS));
        assertEquals("Z", back.get(10, TimeUnit.SECONDS));
        assertEquals(List.of("x", "y", "z"), runs.get(2), "the caller that came back joined the waiting ones");
        assertEquals(3, runs.size());
    }

    @Test
    void whileCallersGatherOnlyTheOldestWakesToLookAtTheTime() throws Exception {
        FakeClock clock = new FakeClock();
        CountDownLatch gate = new CountDownLatch(1);
        GroupCommit<String, String> groups = new GroupCommit<>(1, 10, 1, r -> 1, r -> r.startsWith("g"),
                timed(clock, TimeUnit.MICROSECONDS.toNanos(800), gate), clock);
        CompletableFuture<String> held = slowThenHold(groups);
        List<CompletableFuture<String>> gathering = new ArrayList<>();
        for (String r : List.of("g1", "g2", "g3")) {
            gathering.add(queued(groups, r, gathering.size() + 1));
        }
        gate.countDown();
        held.get(10, TimeUnit.SECONDS);
        for (CompletableFuture<String> f : gathering) {
            f.get(10, TimeUnit.SECONDS);
        }
        assertEquals(List.of("g1", "g2", "g3"), runs.get(2));
        // A group of three that gathers has ended and the clock stands still: two callers wait for a third.
        CompletableFuture<String> x = queued(groups, "x", 1);
        CompletableFuture<String> y = queued(groups, "y", 2);
        clock.forgetReaders();
        clock.awaitReads(5);
        assertEquals(1, clock.readers().size(), "x keeps the time; y sleeps until a group takes it");
        assertEquals("Z", groups.run("z"), "the third caller back starts the group");
        assertEquals(List.of("x", "y", "z"), runs.get(3));
        assertEquals("X", x.get(10, TimeUnit.SECONDS));
        assertEquals("Y", y.get(10, TimeUnit.SECONDS));
    }

    @Test
    void theWaitForReturningCallersEndsAfterATypicalGroupsTimeOverTheGroupsInFlight() throws Exception {
        Gathering g = endAGatheringGroupWithTwoWaiting();
        // One group at a time, typically 700-800 µs: the wait ends at most 800 µs after the last group did.
        g.clock().advance(TimeUnit.MICROSECONDS.toNanos(800));
        assertEquals("X", g.x().get(10, TimeUnit.SECONDS));
        assertEquals("Y", g.y().get(10, TimeUnit.SECONDS));
        assertEquals(List.of("x", "y"), runs.get(2), "nobody came back in time: the waiting ones went alone");
    }

    @Test
    void afterAGroupOfRequestsThatDoNotGatherTheNextStartsAtOnce() throws Exception {
        Gathering g = endAGroupWithTwoWaiting(r -> false);
        // The clock never moves, so a wait would never end.
        assertEquals("X", g.x().get(10, TimeUnit.SECONDS));
        assertEquals("Y", g.y().get(10, TimeUnit.SECONDS));
        assertEquals(List.of("x", "y"), runs.get(2));
    }

    @Test
    void aCallerWhoseOwnGroupJustEndedDoesNotWaitForItself() throws Exception {
        FakeClock clock = new FakeClock();
        GroupCommit<String, String> groups = new GroupCommit<>(2, 10, 1, r -> 1, r -> true,
                timed(clock, TimeUnit.MICROSECONDS.toNanos(800), new CountDownLatch(0)), clock);
        // The clock never moves: a wait would never end, and the call would time out here instead of hanging.
        assertEquals("SLOW", groups.run("slow"));
        for (String r : List.of("a", "b", "c")) {
            assertEquals(r.toUpperCase(), call(groups, r).get(10, TimeUnit.SECONDS),
                    "one producer calling again and again runs at once");
        }
        assertEquals(4, runs.size());
    }

    private CompletableFuture<String> call(GroupCommit<String, String> groups, String request) {
        return CompletableFuture.supplyAsync(() -> groups.run(request), callers);
    }

    private static void await(CountDownLatch gate) {
        try {
            if (!gate.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the gate never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void waitUntil(BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("condition not met within 10 s");
            }
            Thread.sleep(1);
        }
    }
}
