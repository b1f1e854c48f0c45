package dev.weir.concurrency;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Weighted mode's overflow pool: one acquire of {@link #WANTED} permits and the release of whatever was granted, by 1,
 * 2 and 8 threads at once, each thread polling for its own queue as a dispatcher would.
 *
 * <p>The pool is contended even with one thread: {@value #CAPACITY} permits, of which four other queues (weight 1)
 * hold {@value #HELD_BY_OTHERS} each for the whole run, so every grant divides the pool by the weights of five or
 * more contending queues. Thread {@code i} polls for its own queue, of weight {@code 1 + i % 3}. With one thread the
 * requester's share (4) covers what it asks for; with 2 and 8 threads the shares fall below {@link #WANTED} (the
 * weight-1 queue gets 3 of 4 with 2 threads; with 8 threads the shares are 1 to 3), requests are cut, the requesting
 * queues become starved, and every release also works out which starved queues to wake and calls the wake-up
 * listener, as in a busy server.
 *
 * <p>The {@code *WholePool} variants ask, with one thread, for the whole pool, as a weighted-mode dispatcher does
 * (its batch is {@code min-workers} plus the pool's size): the request is cut to the queue's share, the queue is
 * starved, and every release works out the wake-ups and calls the listener, without any lock contention.
 *
 * <p>Two paths over the same pool: {@code allocator*} calls {@link OverflowAllocator} directly (what the
 * {@code OverflowPool} EJB delegates to), one {@code tryAcquire} and one {@code release(queue, n)};
 * {@code weighted*} goes through {@link WeightedCapacity} as a dispatcher does (with {@code min-workers} 0, so every
 * permit is overflow), which makes a {@link Permit} per granted permit and gives each back on its own.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class OverflowBenchmark {

    /** Size of the overflow pool. */
    static final int CAPACITY = 16;
    /** Permits each benchmark thread asks for per poll. */
    static final int WANTED = 4;
    /** Queues the benchmark threads poll for; thread {@code i} uses queue {@code i % 8}. */
    static final int POLLING_QUEUES = 8;
    /** Queues that take permits at set-up and keep them, so that the pool is never uncontended. */
    static final int HOLDING_QUEUES = 4;
    /** Permits each holding queue keeps. */
    static final int HELD_BY_OTHERS = 2;

    /** The instance's pool, shared by every benchmark thread. */
    @State(Scope.Benchmark)
    public static class Pool {

        OverflowAllocator allocator;
        final List<WeightedCapacity> capacities = new ArrayList<>();
        /** Counts wake-ups, standing in for the dispatchers' doorbells. */
        final LongAdder wakeUps = new LongAdder();

        @Setup(Level.Trial)
        public void create() {
            Map<String, Integer> weights = new LinkedHashMap<>();
            for (int i = 0; i < POLLING_QUEUES; i++) {
                weights.put(pollingQueue(i), 1 + i % 3);
            }
            for (int i = 0; i < HOLDING_QUEUES; i++) {
                weights.put("holding-" + i, 1);
            }
            allocator = new OverflowAllocator(CAPACITY, weights);
            allocator.onCapacityFreed(queues -> wakeUps.add(queues.size()));
            for (int i = 0; i < HOLDING_QUEUES; i++) {
                int granted = allocator.tryAcquire("holding-" + i, HELD_BY_OTHERS);
                if (granted != HELD_BY_OTHERS) {
                    throw new IllegalStateException("set-up: holding queue " + i + " was granted " + granted);
                }
            }
            for (int i = 0; i < POLLING_QUEUES; i++) {
                WeightedCapacity capacity = new WeightedCapacity(pollingQueue(i), 0, allocator);
                capacity.onRelease(wakeUps::increment);
                capacities.add(capacity);
            }
            if (allocator.fairShare(pollingQueue(0)) < WANTED) {
                throw new IllegalStateException("set-up: a single poller would be starved, which is not the intent");
            }
        }

        /** Every permit the benchmark took came back: the pool holds exactly what the holding queues took. */
        @TearDown(Level.Trial)
        public void check() {
            int expectedFree = CAPACITY - HOLDING_QUEUES * HELD_BY_OTHERS;
            if (allocator.free() != expectedFree) {
                throw new IllegalStateException("permits leaked: " + allocator.free() + " free, " + expectedFree
                        + " expected");
            }
        }

        static String pollingQueue(int i) {
            return "polling-" + i;
        }
    }

    /** The queue one benchmark thread polls for. */
    @State(Scope.Thread)
    public static class Poller {

        String queue;
        WeightedCapacity capacity;

        @Setup(Level.Trial)
        public void pick(Pool pool, ThreadParams thread) {
            int i = thread.getThreadIndex() % POLLING_QUEUES;
            queue = Pool.pollingQueue(i);
            capacity = pool.capacities.get(i);
        }
    }

    /** {@link OverflowAllocator} acquire + release, one thread. */
    @Benchmark
    @Threads(1)
    public int allocator1(Pool pool, Poller poller) {
        return allocatorAcquireRelease(pool, poller);
    }

    /** {@link OverflowAllocator} acquire + release, 2 threads on different queues. */
    @Benchmark
    @Threads(2)
    public int allocator2(Pool pool, Poller poller) {
        return allocatorAcquireRelease(pool, poller);
    }

    /** {@link OverflowAllocator} acquire + release, 8 threads on different queues. */
    @Benchmark
    @Threads(8)
    public int allocator8(Pool pool, Poller poller) {
        return allocatorAcquireRelease(pool, poller);
    }

    /** {@link WeightedCapacity} acquire + release of each permit, one thread. */
    @Benchmark
    @Threads(1)
    public int weighted1(Poller poller) {
        return weightedAcquireRelease(poller);
    }

    /** {@link WeightedCapacity} acquire + release of each permit, 2 threads on different queues. */
    @Benchmark
    @Threads(2)
    public int weighted2(Poller poller) {
        return weightedAcquireRelease(poller);
    }

    /** {@link WeightedCapacity} acquire + release of each permit, 8 threads on different queues. */
    @Benchmark
    @Threads(8)
    public int weighted8(Poller poller) {
        return weightedAcquireRelease(poller);
    }

    /** {@link OverflowAllocator} acquire of the whole pool (cut to the share) + release, one thread. */
    @Benchmark
    @Threads(1)
    public int allocator1WholePool(Pool pool, Poller poller) {
        int granted = pool.allocator.tryAcquire(poller.queue, CAPACITY);
        pool.allocator.release(poller.queue, granted);
        return granted;
    }

    /** {@link WeightedCapacity} acquire of the whole pool (cut to the share) + release of each permit, one thread. */
    @Benchmark
    @Threads(1)
    public int weighted1WholePool(Poller poller) {
        List<Permit> permits = poller.capacity.tryAcquire(CAPACITY);
        for (Permit permit : permits) {
            permit.release();
        }
        return permits.size();
    }

    private static int allocatorAcquireRelease(Pool pool, Poller poller) {
        int granted = pool.allocator.tryAcquire(poller.queue, WANTED);
        pool.allocator.release(poller.queue, granted);
        return granted;
    }

    private static int weightedAcquireRelease(Poller poller) {
        List<Permit> permits = poller.capacity.tryAcquire(WANTED);
        for (Permit permit : permits) {
            permit.release();
        }
        return permits.size();
    }
}
