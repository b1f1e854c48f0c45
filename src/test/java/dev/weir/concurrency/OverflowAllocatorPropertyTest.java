package dev.weir.concurrency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Properties of the overflow pool. The sequential properties check every grant against an independent model of
 * DESIGN §3.1 (held and demand per queue, recomputed here rather than through {@link FairShare}).
 *
 * <p>Each property runs many cases, each generated from one {@code long} seed. The seeds come from a fixed base,
 * so every run tries the same cases. A failure names the seed and the step; to replay just that case, run
 * {@code mvn test -Dtest=OverflowAllocatorPropertyTest#<property> -Dweir.test.seed=<seed>}.
 */
class OverflowAllocatorPropertyTest {

    /** Names the system property that fixes the seed of the single case to run. */
    private static final String SEED_PROPERTY = "weir.test.seed";
    /** Where the seeds of the cases come from when no seed is fixed. */
    private static final long BASE_SEED = 0x5745_4952_0003_0001L;

    enum Kind { ACQUIRE, RELEASE, CLEAR }

    /** One step by one queue; {@code amount} is the number wanted, or for a release, picks how many of those held. */
    record Op(Kind kind, int queue, int amount) {
    }

    @Test
    void everyStepKeepsTheInvariantsAndGrantsWhatFairShareAllows() {
        forEachCase("everyStepKeepsTheInvariantsAndGrantsWhatFairShareAllows", 1_000, (random, trace) -> {
            int capacity = between(random, 0, 20);
            List<Integer> weights = weights(random, 1, 4);
            List<Op> ops = new ArrayList<>();
            for (int i = between(random, 0, 60); i > 0; i--) {
                ops.add(new Op(Kind.values()[random.nextInt(Kind.values().length)],
                        random.nextInt(weights.size()), between(random, 0, 12)));
            }
            trace.setCase("capacity=" + capacity + " weights=" + weights + " ops=" + ops);

            Model model = new Model(capacity, weights);
            OverflowAllocator pool = model.pool();

            for (int step = 0; step < ops.size(); step++) {
                Op op = ops.get(step);
                String at = "step " + step + " " + op;
                trace.setStep(at);
                int q = op.queue();
                String name = name(q);
                switch (op.kind()) {
                    case ACQUIRE -> {
                        int wanted = op.amount();
                        int free = model.free();
                        int share = model.shareIfContending(q);
                        int heldBefore = model.held[q];
                        int granted = pool.tryAcquire(name, wanted);

                        assertTrue(granted >= 0 && granted <= wanted,
                                () -> at + ": granted within [0, wanted]: " + granted);
                        assertTrue(granted <= free,
                                () -> at + ": granted " + granted + ", no more than the " + free + " free");
                        assertTrue(heldBefore + granted <= Math.max(heldBefore, share),
                                () -> at + ": a grant never passes the share " + share + " (held " + heldBefore
                                        + ", granted " + granted + ")");
                        if (wanted > 0 && free > 0 && heldBefore < share) {
                            assertTrue(granted > 0, () -> at + ": work conservation: demand, " + free
                                    + " free, held " + heldBefore + " below share " + share + " → a grant");
                        }
                        assertEquals(Math.max(0, Math.min(wanted, Math.min(free, share - heldBefore))), granted,
                                () -> at + ": exactly min(wanted, free=" + free + ", share=" + share + " − held="
                                        + heldBefore + ")");
                        model.held[q] += granted;
                        model.demand[q] = wanted;
                    }
                    case RELEASE -> {
                        int n = op.amount() % (model.held[q] + 1);
                        pool.release(name, n);
                        model.held[q] -= n;
                    }
                    case CLEAR -> {
                        pool.clearDemand(name);
                        model.demand[q] = 0;
                    }
                }
                model.assertMatches(pool, at);
            }

            trace.setStep("release everything after " + ops.size() + " steps");
            model.releaseEverything(pool);
            assertEquals(capacity, pool.free(), "no leak: every permit is back");
        });
    }

    /**
     * A queue that was alone took more than its share; then every queue keeps finishing one job and asking for
     * more. Within as many rounds as there are permits, nobody holds more than its fair share and the pool is
     * fully used.
     */
    @Test
    void holdingsConvergeToFairShares() {
        forEachCase("holdingsConvergeToFairShares", 1_000, (random, trace) -> {
            HeadStart start = HeadStart.draw(random, trace);
            int capacity = start.model().capacity;
            List<Integer> weights = start.model().weights;
            Random shuffler = start.shuffler();
            Model model = start.model();
            OverflowAllocator pool = start.pool();
            List<Integer> order = start.order();
            for (int round = 0; round <= capacity + 1; round++) {
                Collections.shuffle(order, shuffler);
                for (int q : order) {
                    trace.setStep("round " + round + " (order " + order + "), " + name(q));
                    if (model.held[q] > 0) {
                        pool.release(name(q), 1);
                        model.held[q]--;
                    }
                    model.held[q] += pool.tryAcquire(name(q), capacity);
                    model.demand[q] = capacity;
                }
                model.assertMatches(pool, "after round " + round);
            }

            trace.setStep("after " + (capacity + 2) + " rounds");
            for (int q = 0; q < weights.size(); q++) {
                String name = name(q);
                int modelShare = model.shareIfContending(q);
                assertTrue(pool.held(name) <= pool.fairShare(name),
                        () -> name + " holds " + pool.held(name) + " > share " + pool.fairShare(name));
                assertTrue(pool.held(name) <= modelShare,
                        () -> name + " holds " + pool.held(name) + " > modelled share " + modelShare);
            }
            assertEquals(0, pool.free(), "every queue wants more, so nothing stays free");
            model.releaseEverything(pool);
            assertEquals(capacity, pool.free(), "no leak: every permit is back");
        });
    }

    /**
     * Every queue renews the permits of its finished jobs (keeping what {@link OverflowAllocator#renewable} allows,
     * giving back the rest) and then asks for more, round after round, half a {@linkplain OverflowAllocator#ROTATION
     * rotation period} apart. After as many rounds as there are permits, each queue holds between its fair share
     * rounded down and rounded up, and the pool is fully used: renewal lets no incumbent keep more than its share,
     * nor keep a waiting queue below its share rounded down.
     */
    @Test
    void holdingsConvergeToFairSharesUnderRenewal() {
        forEachCase("holdingsConvergeToFairSharesUnderRenewal", 1_000, (random, trace) -> {
            HeadStart start = HeadStart.draw(random, trace);
            int capacity = start.model().capacity;
            List<Integer> weights = start.model().weights;
            Random shuffler = start.shuffler();
            Model model = start.model();
            OverflowAllocator pool = start.pool();
            List<Integer> order = start.order();
            long totalWeight = weights.stream().mapToLong(Integer::longValue).sum();
            for (int round = 0; round <= 2 * capacity + 4; round++) {
                model.pass(OverflowAllocator.ROTATION.toNanos() / 2);
                Collections.shuffle(order, shuffler);
                for (int q : order) {
                    trace.setStep("round " + round + " (order " + order + "), " + name(q) + " renews");
                    int keep = pool.renewable(name(q), model.held[q]);
                    assertTrue(keep >= 0 && keep <= model.held[q]);
                    pool.release(name(q), model.held[q] - keep);
                    model.held[q] = keep;
                }
                Collections.shuffle(order, shuffler);
                for (int q : order) {
                    trace.setStep("round " + round + " (order " + order + "), " + name(q) + " asks");
                    model.held[q] += pool.tryAcquire(name(q), capacity);
                    model.demand[q] = capacity;
                }
                model.assertMatches(pool, "after round " + round);
                if (round > capacity + 2) {
                    assertEquals(0, pool.free(), "every queue wants more, so nothing stays free");
                    for (int q = 0; q < weights.size(); q++) {
                        long floor = capacity * (long) weights.get(q) / totalWeight;
                        int held = model.held[q];
                        int ceil = model.shareIfContending(q);
                        String name = name(q);
                        int r = round;
                        assertTrue(held >= floor && held <= ceil, () -> "round " + r + ": " + name + " holds " + held
                                + ", outside its share rounded down (" + floor + ") and up (" + ceil + ")");
                    }
                }
            }
            model.releaseEverything(pool);
            assertEquals(capacity, pool.free(), "no leak: every permit is back");
        });
    }

    /**
     * Real threads, one per queue, each acquiring, releasing and clearing at random against one pool. The seed
     * fixes each thread's operations, not how the threads interleave, so a replay may need a few runs.
     */
    @Test
    void concurrentUseNeverOverCommitsNorLeaks() {
        forEachCase("concurrentUseNeverOverCommitsNorLeaks", 50, (random, trace) -> {
            int capacity = between(random, 1, 16);
            List<Integer> weights = weights(random, 2, 4);
            trace.setCase("capacity=" + capacity + " weights=" + weights);

            Map<String, Integer> w = weightsByName(weights);
            OverflowAllocator pool = new OverflowAllocator(capacity, w);
            AtomicInteger wakeUps = new AtomicInteger();
            pool.onCapacityFreed(queues -> {
                assertTrue(!queues.isEmpty(), "listeners are never called with nobody to wake");
                wakeUps.incrementAndGet();
            });
            // Incremented after a grant and decremented before a release, so it never exceeds what the pool has lent.
            AtomicInteger lent = new AtomicInteger();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < weights.size(); i++) {
                String queue = name(i);
                SplittableRandom own = new SplittableRandom(random.nextLong());
                Thread t = new Thread(() -> {
                    int mine = 0;
                    int step = -1;
                    try {
                        start.await();
                        for (step = 0; step < 2_000; step++) {
                            int r = own.nextInt(10);
                            if (r < 5) {
                                int wanted = own.nextInt(6);
                                int granted = pool.tryAcquire(queue, wanted);
                                assertTrue(granted >= 0 && granted <= wanted,
                                        "granted " + granted + " of " + wanted);
                                mine += granted;
                                int nowLent = lent.addAndGet(granted);
                                assertTrue(nowLent <= capacity, "lent " + nowLent + " > capacity " + capacity);
                            } else if (r < 9) {
                                int n = own.nextInt(mine + 1);
                                lent.addAndGet(-n);
                                pool.release(queue, n);
                                mine -= n;
                            } else {
                                pool.clearDemand(queue);
                            }
                            // Only this thread changes this queue's holdings, so they must agree exactly.
                            assertEquals(mine, pool.held(queue), "held of " + queue);
                            assertTrue(mine >= 0, "held never negative: " + mine);
                            int free = pool.free();
                            assertTrue(free >= 0 && free <= capacity, "free out of range: " + free);
                        }
                        step = 2_000;
                        lent.addAndGet(-mine);
                        pool.release(queue, mine);
                    } catch (Throwable e) {
                        failures.add(new AssertionError(
                                "thread " + queue + " at step " + step + ": " + e.getMessage(), e));
                    }
                }, "weir-test-" + queue);
                threads.add(t);
                t.start();
            }
            trace.setStep("running " + threads.size() + " threads");
            start.countDown();
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                assertTrue(!t.isAlive(), "thread did not finish: " + t.getName());
            }
            if (!failures.isEmpty()) {
                AssertionError error = new AssertionError("failures in worker threads: " + failures.peek().getMessage());
                failures.forEach(error::addSuppressed);
                throw error;
            }
            trace.setStep("after every thread gave back what it held");
            assertEquals(capacity, pool.free(), "no leak after every thread gave back what it held");
            for (String queue : w.keySet()) {
                assertEquals(0, pool.held(queue), "held of " + queue);
            }
        });
    }

    @Test
    void releasingMoreThanHeldIsRefusedAndChangesNothing() {
        OverflowAllocator pool = new OverflowAllocator(5, Map.of("a", 1, "b", 1));
        assertEquals(2, pool.tryAcquire("a", 2));
        assertThrows(IllegalStateException.class, () -> pool.release("a", 3));
        assertThrows(IllegalStateException.class, () -> pool.release("b", 1));
        assertEquals(2, pool.held("a"));
        assertEquals(0, pool.held("b"));
        assertEquals(3, pool.free());
        assertThrows(IllegalArgumentException.class, () -> pool.release("a", -1));
        assertThrows(IllegalArgumentException.class, () -> pool.tryAcquire("nope", 1));
    }

    @Test
    void aReleaseWakesStarvedQueuesIncludingTheReleasingOne() {
        OverflowAllocator pool = new OverflowAllocator(4, Map.of("a", 1, "b", 1, "c", 1));
        List<Set<String>> woken = new ArrayList<>();
        pool.onCapacityFreed(woken::add);

        assertEquals(4, pool.tryAcquire("a", 4)); // alone: everything; a is satisfied
        assertEquals(0, pool.tryAcquire("b", 2)); // pool full: b is starved
        pool.release("a", 1);
        assertEquals(List.of(Set.of("b")), woken, "b wanted capacity and is below its share of 2");

        woken.clear();
        assertEquals(1, pool.tryAcquire("b", 2)); // b got 1 of 2: still starved, but now the pool is full
        assertEquals(0, pool.tryAcquire("a", 5)); // a above its share: starved too
        pool.release("a", 2); // a holds 1, b holds 1, free 2; shares are 2 each
        assertEquals(List.of(Set.of("a", "b")), woken, "the releasing queue may refill too");

        woken.clear();
        pool.clearDemand("c"); // c never asked: shares do not change, so no one is told anything
        assertEquals(List.of(), woken);
    }

    @Test
    void nobodyIsWokenWhenNobodyIsStarved() {
        OverflowAllocator pool = new OverflowAllocator(4, Map.of("a", 1, "b", 1));
        List<Set<String>> woken = new ArrayList<>();
        pool.onCapacityFreed(woken::add);
        assertEquals(2, pool.tryAcquire("a", 2));
        pool.release("a", 2);
        assertEquals(List.of(), woken);
    }

    @Test
    void clearingDemandWakesQueuesWhoseShareGrew() {
        OverflowAllocator pool = new OverflowAllocator(10, Map.of("a", 1, "b", 1));
        List<Set<String>> woken = new ArrayList<>();
        pool.onCapacityFreed(woken::add);
        assertEquals(0, pool.tryAcquire("b", 0)); // b asks for nothing: no contender
        assertEquals(1, pool.tryAcquire("b", 1));
        pool.release("b", 1); // b holds nothing but still asked for 1: a's share is 5
        assertEquals(5, pool.tryAcquire("a", 10));
        pool.clearDemand("b"); // b found no work: a's share is the whole pool again
        assertEquals(List.of(Set.of("a")), woken);
        assertEquals(5, pool.tryAcquire("a", 10));
    }

    @Test
    void listenersRunOutsideTheLock() {
        OverflowAllocator pool = new OverflowAllocator(2, Map.of("a", 1, "b", 1));
        List<Integer> seenFree = new ArrayList<>();
        pool.onCapacityFreed(queues -> {
            // Another thread must be able to take the lock while the listener runs; if it cannot, get() times out.
            FutureTask<Integer> read = new FutureTask<>(pool::free);
            new Thread(read, "weir-test-reader").start();
            try {
                seenFree.add(read.get(10, TimeUnit.SECONDS));
            } catch (Exception e) {
                throw new AssertionError("the listener ran under the pool's lock", e);
            }
        });
        assertEquals(2, pool.tryAcquire("a", 2));
        assertEquals(0, pool.tryAcquire("b", 1));
        pool.release("a", 1);
        assertEquals(List.of(1), seenFree);
    }

    /**
     * The opening of the convergence properties: a pool of random size and weights (2 to 4 queues) where the first
     * queue, alone, took up to 30 permits, and the queues' indexes in a list to shuffle each round.
     */
    private record HeadStart(Model model, OverflowAllocator pool, Random shuffler, List<Integer> order) {

        static HeadStart draw(SplittableRandom random, Trace trace) {
            int capacity = between(random, 1, 30);
            List<Integer> weights = weights(random, 2, 4);
            int headStart = between(random, 0, 30);
            Random shuffler = new Random(random.nextLong());
            trace.setCase("capacity=" + capacity + " weights=" + weights + " headStart=" + headStart);

            Model model = new Model(capacity, weights);
            OverflowAllocator pool = model.pool();
            trace.setStep("head start");
            model.held[0] = pool.tryAcquire(name(0), Math.min(headStart, capacity));
            model.demand[0] = Math.min(headStart, capacity);

            List<Integer> order = new ArrayList<>();
            for (int q = 0; q < weights.size(); q++) {
                order.add(q);
            }
            return new HeadStart(model, pool, shuffler, order);
        }
    }

    // ---- Running cases ------------------------------------------------------------------------------------------

    /** One generated case: draws its inputs from {@code random} and reports where it is through {@code trace}. */
    @FunctionalInterface
    interface Case {
        void run(SplittableRandom random, Trace trace) throws Exception;
    }

    /** What a failure report says about the case: its inputs and the step it had reached. */
    static final class Trace {
        private String inputs = "(not generated yet)";
        private String step = "(setup)";

        void setCase(String inputs) {
            this.inputs = inputs;
        }

        void setStep(String step) {
            this.step = step;
        }
    }

    /**
     * Runs {@code tries} cases, the i-th from the i-th seed drawn from {@link #BASE_SEED}, or only the case of the
     * seed in the system property {@value #SEED_PROPERTY} if it is set. Stops at the first failure, reporting its
     * seed, step and inputs.
     */
    private static void forEachCase(String property, int tries, Case body) {
        String fixed = System.getProperty(SEED_PROPERTY, "").trim();
        long[] seeds;
        if (fixed.isEmpty()) {
            SplittableRandom seedSource = new SplittableRandom(BASE_SEED);
            seeds = new long[tries];
            for (int i = 0; i < tries; i++) {
                seeds[i] = seedSource.nextLong();
            }
        } else {
            seeds = new long[] {Long.parseLong(fixed)};
        }
        for (int i = 0; i < seeds.length; i++) {
            long seed = seeds[i];
            Trace trace = new Trace();
            try {
                body.run(new SplittableRandom(seed), trace);
            } catch (Throwable e) {
                throw new AssertionError(property + " failed, case " + (i + 1) + " of " + seeds.length
                        + ", seed " + seed + ", at " + trace.step + ": " + e.getMessage()
                        + "\n  inputs: " + trace.inputs
                        + "\n  replay: mvn test -Dtest=OverflowAllocatorPropertyTest#" + property
                        + " -D" + SEED_PROPERTY + "=" + seed, e);
            }
        }
    }

    /** An int in [min, max], now and then exactly min or max so the edges are tried often. */
    private static int between(SplittableRandom random, int min, int max) {
        int edge = random.nextInt(16);
        if (edge == 0) {
            return min;
        }
        if (edge == 1) {
            return max;
        }
        return random.nextInt(min, max + 1);
    }

    /** Between {@code minQueues} and {@code maxQueues} weights, each in [1, 5]. */
    private static List<Integer> weights(SplittableRandom random, int minQueues, int maxQueues) {
        List<Integer> weights = new ArrayList<>();
        for (int i = between(random, minQueues, maxQueues); i > 0; i--) {
            weights.add(between(random, 1, 5));
        }
        return weights;
    }

    private static String name(int q) {
        return "q" + q;
    }

    private static Map<String, Integer> weightsByName(List<Integer> weights) {
        Map<String, Integer> byName = new LinkedHashMap<>();
        for (int q = 0; q < weights.size(); q++) {
            byName.put(name(q), weights.get(q));
        }
        return byName;
    }

    /** What the pool should hold, kept independently of it. */
    private static final class Model {
        final int capacity;
        final List<Integer> weights;
        final int[] held;
        final int[] demand;
        /** The pool's clock, in nanoseconds: it moves only when a case says so ({@link #pass}). */
        private long now;

        Model(int capacity, List<Integer> weights) {
            this.capacity = capacity;
            this.weights = weights;
            this.held = new int[weights.size()];
            this.demand = new int[weights.size()];
        }

        OverflowAllocator pool() {
            return new OverflowAllocator(capacity, weightsByName(weights), () -> now);
        }

        /** Moves the pool's clock on. */
        void pass(long nanos) {
            now += nanos;
        }

        int free() {
            int total = 0;
            for (int h : held) {
                total += h;
            }
            return capacity - total;
        }

        /** ceil(capacity × w(q) / Σ w(contending)), counting q as contending. */
        int shareIfContending(int q) {
            long sum = 0;
            for (int i = 0; i < held.length; i++) {
                if (i == q || held[i] > 0 || demand[i] > 0) {
                    sum += weights.get(i);
                }
            }
            return (int) Math.ceil((double) capacity * weights.get(q) / sum);
        }

        void assertMatches(OverflowAllocator pool, String at) {
            for (int q = 0; q < held.length; q++) {
                int modelHeld = held[q];
                String name = name(q);
                assertTrue(modelHeld >= 0, () -> at + ": held never negative: " + name + " holds " + modelHeld);
                assertEquals(modelHeld, pool.held(name), () -> at + ": held of " + name);
                assertEquals(demand[q], pool.demand(name), () -> at + ": demand of " + name);
            }
            assertTrue(free() >= 0, () -> at + ": total held never exceeds capacity " + capacity + ": free " + free());
            assertEquals(free(), pool.free(), () -> at + ": free = capacity − Σ held");
        }

        void releaseEverything(OverflowAllocator pool) {
            for (int q = 0; q < held.length; q++) {
                pool.release(name(q), held[q]);
                held[q] = 0;
            }
        }
    }
}
