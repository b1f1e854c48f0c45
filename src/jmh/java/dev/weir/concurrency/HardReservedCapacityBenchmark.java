package dev.weir.concurrency;

import java.util.List;
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

/**
 * Hard-reserved mode: one queue's {@code max-workers} permits (the default, {@value #MAX_WORKERS}), taken
 * {@value #WANTED} at a time and each given back on its own, as a dispatcher takes them and the completer returns
 * them. With 8 threads all of them work on the same queue's semaphore, a worst case; 8 × {@value #WANTED} still
 * fits in {@value #MAX_WORKERS}, so no request is cut.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class HardReservedCapacityBenchmark {

    static final int MAX_WORKERS = 50;
    static final int WANTED = 4;

    HardReservedCapacity capacity;
    /** Counts releases, standing in for the dispatcher's release listener. */
    final LongAdder released = new LongAdder();

    @Setup(Level.Trial)
    public void create() {
        capacity = new HardReservedCapacity("default", MAX_WORKERS);
        capacity.onRelease(released::increment);
    }

    /** Every permit the benchmark took came back. */
    @TearDown(Level.Trial)
    public void check() {
        if (capacity.inFlight() != 0) {
            throw new IllegalStateException("permits leaked: " + capacity.inFlight() + " in flight");
        }
    }

    /** {@link HardReservedCapacity} acquire of 4 + release of each, one thread. */
    @Benchmark
    @Threads(1)
    public int acquireRelease1() {
        return acquireRelease();
    }

    /** {@link HardReservedCapacity} acquire of 4 + release of each, 8 threads on the same queue. */
    @Benchmark
    @Threads(8)
    public int acquireRelease8() {
        return acquireRelease();
    }

    private int acquireRelease() {
        List<Permit> permits = capacity.tryAcquire(WANTED);
        for (Permit permit : permits) {
            permit.release();
        }
        return permits.size();
    }
}
