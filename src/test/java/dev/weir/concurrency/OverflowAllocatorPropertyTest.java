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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Properties of the overflow pool. The sequential properties check every grant against an independent model of
 * DESIGN §3.1 (held and demand per queue, recomputed here rather than through {@link FairShare}).
 */
class OverflowAllocatorPropertyTest {

    enum Kind { ACQUIRE, RELEASE, CLEAR }

    /** One step by one queue; {@code amount} is the number wanted, or for a release, picks how many of those held. */
    record Op(Kind kind, int queue, int amount) {
    }

    @Provide
    Arbitrary<Op> ops() {
        return Combinators.combine(
                Arbitraries.of(Kind.class),
                Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 12)).as(Op::new);
    }

    @Property
    void everyStepKeepsTheInvariantsAndGrantsWhatFairShareAllows(
            @ForAll @IntRange(min = 0, max = 20) int capacity,
            @ForAll @Size(min = 1, max = 4) List<@IntRange(min = 1, max = 5) Integer> weights,
            @ForAll @Size(max = 60) List<@From("ops") Op> ops) {
        Model model = new Model(capacity, weights);
        OverflowAllocator pool = model.pool();

        for (Op op : ops) {
            int q = op.queue() % weights.size();
            String name = name(q);
            switch (op.kind()) {
                case ACQUIRE -> {
                    int wanted = op.amount();
                    int free = model.free();
                    int share = model.shareIfContending(q);
                    int heldBefore = model.held[q];
                    int granted = pool.tryAcquire(name, wanted);

                    assertTrue(granted >= 0 && granted <= wanted, "granted within [0, wanted]: " + granted);
                    assertTrue(granted <= free, "granted no more than was free");
                    assertTrue(heldBefore + granted <= Math.max(heldBefore, share), "a grant never passes the share");
                    if (wanted > 0 && free > 0 && heldBefore < share) {
                        assertTrue(granted > 0, "work conservation: demand, free permits, below share → a grant");
                    }
                    assertEquals(Math.max(0, Math.min(wanted, Math.min(free, share - heldBefore))), granted,
                            "exactly min(wanted, free, share − held)");
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
            model.assertMatches(pool);
        }

        model.releaseEverything(pool);
        assertEquals(capacity, pool.free(), "no leak: every permit is back");
    }

    /**
     * A queue that was alone took more than its share; then every queue keeps finishing one job and asking for
     * more. Within as many rounds as there are permits, nobody holds more than its fair share and the pool is
     * fully used.
     */
    @Property
    void holdingsConvergeToFairShares(
            @ForAll @IntRange(min = 1, max = 30) int capacity,
            @ForAll @Size(min = 2, max = 4) List<@IntRange(min = 1, max = 5) Integer> weights,
            @ForAll @IntRange(min = 0, max = 30) int headStart,
            @ForAll long seed) {
        Model model = new Model(capacity, weights);
        OverflowAllocator pool = model.pool();
        model.held[0] = pool.tryAcquire(name(0), Math.min(headStart, capacity));
        model.demand[0] = Math.min(headStart, capacity);

        List<Integer> order = new ArrayList<>();
        for (int q = 0; q < weights.size(); q++) {
            order.add(q);
        }
        Random random = new Random(seed);
        for (int round = 0; round <= capacity + 1; round++) {
            Collections.shuffle(order, random);
            for (int q : order) {
                if (model.held[q] > 0) {
                    pool.release(name(q), 1);
                    model.held[q]--;
                }
                model.held[q] += pool.tryAcquire(name(q), capacity);
                model.demand[q] = capacity;
            }
            model.assertMatches(pool);
        }

        for (int q = 0; q < weights.size(); q++) {
            assertTrue(pool.held(name(q)) <= pool.fairShare(name(q)),
                    name(q) + " holds " + pool.held(name(q)) + " > share " + pool.fairShare(name(q)));
        }
        assertEquals(0, pool.free(), "every queue wants more, so nothing stays free");
        model.releaseEverything(pool);
        assertEquals(capacity, pool.free());
    }

    /** Real threads, one per queue, each acquiring, releasing and clearing at random against one pool. */
    @Property(tries = 25)
    void concurrentUseNeverOverCommitsNorLeaks(
            @ForAll @IntRange(min = 1, max = 16) int capacity,
            @ForAll @Size(min = 2, max = 4) List<@IntRange(min = 1, max = 5) Integer> weights,
            @ForAll long seed) throws Exception {
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
            Random random = new Random(seed + i);
            Thread t = new Thread(() -> {
                int mine = 0;
                try {
                    start.await();
                    for (int step = 0; step < 2_000; step++) {
                        int r = random.nextInt(10);
                        if (r < 5) {
                            int wanted = random.nextInt(6);
                            int granted = pool.tryAcquire(queue, wanted);
                            assertTrue(granted >= 0 && granted <= wanted);
                            mine += granted;
                            int nowLent = lent.addAndGet(granted);
                            assertTrue(nowLent <= capacity, "lent " + nowLent + " > capacity " + capacity);
                        } else if (r < 9) {
                            int n = random.nextInt(mine + 1);
                            lent.addAndGet(-n);
                            pool.release(queue, n);
                            mine -= n;
                        } else {
                            pool.clearDemand(queue);
                        }
                        // Only this thread changes this queue's holdings, so they must agree exactly.
                        assertEquals(mine, pool.held(queue));
                        int free = pool.free();
                        assertTrue(free >= 0 && free <= capacity, "free out of range: " + free);
                    }
                    lent.addAndGet(-mine);
                    pool.release(queue, mine);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "weir-test-" + queue);
            threads.add(t);
            t.start();
        }
        start.countDown();
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(!t.isAlive(), "thread did not finish: " + t.getName());
        }
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError("failures in worker threads");
            failures.forEach(error::addSuppressed);
            throw error;
        }
        assertEquals(capacity, pool.free(), "no leak after every thread gave back what it held");
        for (String queue : w.keySet()) {
            assertEquals(0, pool.held(queue));
        }
    }

    @Example
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

    @Example
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

    @Example
    void nobodyIsWokenWhenNobodyIsStarved() {
        OverflowAllocator pool = new OverflowAllocator(4, Map.of("a", 1, "b", 1));
        List<Set<String>> woken = new ArrayList<>();
        pool.onCapacityFreed(woken::add);
        assertEquals(2, pool.tryAcquire("a", 2));
        pool.release("a", 2);
        assertEquals(List.of(), woken);
    }

    @Example
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

    @Example
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

        Model(int capacity, List<Integer> weights) {
            this.capacity = capacity;
            this.weights = weights;
            this.held = new int[weights.size()];
            this.demand = new int[weights.size()];
        }

        OverflowAllocator pool() {
            return new OverflowAllocator(capacity, weightsByName(weights));
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

        void assertMatches(OverflowAllocator pool) {
            for (int q = 0; q < held.length; q++) {
                assertTrue(held[q] >= 0, "held never negative");
                assertEquals(held[q], pool.held(name(q)), "held of " + name(q));
                assertEquals(demand[q], pool.demand(name(q)), "demand of " + name(q));
            }
            assertTrue(free() >= 0, "total held never exceeds capacity");
            assertEquals(free(), pool.free(), "free = capacity − Σ held");
        }

        void releaseEverything(OverflowAllocator pool) {
            for (int q = 0; q < held.length; q++) {
                pool.release(name(q), held[q]);
                held[q] = 0;
            }
        }
    }
}
