package dev.weir.concurrency;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Elastic admission's arithmetic in memory (ADR 0011): what a refusal costs the instance besides its statement. The
 * bound itself is decided by the database (slot rows), so the in-memory part is a refused submission's answer: the
 * refusal counted, the queue's completion rate read (and, once a second, refreshed), and the retry-after worked out.
 * The database's count of recent finishes is stood in for by a constant, so that only the arithmetic is measured.
 *
 * <p>Inputs cycle through {@value #INPUTS} precomputed outstanding counts and rates, so the JIT cannot fold the
 * arithmetic into a constant.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class AdmissionBenchmark {

    static final int LIMIT = 10_000;
    static final int INPUTS = 64;

    /** A queue's recent finishes as the database would count them (within the cap). */
    static final LongSupplier RECENT_FINISHES = () -> 2_500;

    final long[] outstanding = new long[INPUTS];
    final double[] rates = new double[INPUTS];
    /** The gauge on the real clock: refusals read the cached rate, refreshed at most once a second, as in a burst. */
    AdmissionGauge fresh;
    /** The gauge whose rate is stale at every refusal: each one refreshes it, as the first refusal each second does. */
    AdmissionGauge stale;

    /** Per thread: where in the inputs it is. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;

        int step() {
            next = (next + 1) & (INPUTS - 1);
            return next;
        }
    }

    @Setup(Level.Trial)
    public void create() {
        for (int i = 0; i < INPUTS; i++) {
            outstanding[i] = LIMIT - 50 + i;          // with 10 requested: deficit 1 for i <= 41, up to 23 beyond
            rates[i] = i % 8 == 0 ? 0 : 10.0 * i;    // some queues finished nothing recently
        }
        fresh = new AdmissionGauge("bounded", LIMIT);
        fresh.rate(RECENT_FINISHES);                 // refreshed now; from then on at most once a second
        AtomicLong clock = new AtomicLong();
        long step = AdmissionGauge.REFRESH.toNanos() + 1;
        stale = new AdmissionGauge("bounded", LIMIT, () -> clock.addAndGet(step));
    }

    /** {@link RetryAfter#deficit} and {@link RetryAfter#estimate}: the pure arithmetic of a suggestion. */
    @Benchmark
    public Duration retryAfter(Cursor cursor) {
        int i = cursor.step();
        return RetryAfter.estimate(RetryAfter.deficit(outstanding[i], 10, LIMIT), rates[i]);
    }

    /** {@link AdmissionGauge#refuse} with the rate fresh, one thread. */
    @Benchmark
    @Threads(1)
    public Duration refuse1(Cursor cursor) {
        return fresh.refuse(outstanding[cursor.step()], 10, RECENT_FINISHES);
    }

    /** {@link AdmissionGauge#refuse} with the rate fresh, 8 threads refusing on the same queue (the refusal count). */
    @Benchmark
    @Threads(8)
    public Duration refuse8(Cursor cursor) {
        return fresh.refuse(outstanding[cursor.step()], 10, RECENT_FINISHES);
    }

    /** {@link AdmissionGauge#refuse} with the rate stale every time: each refusal refreshes it (compare-and-set). */
    @Benchmark
    @Threads(1)
    public Duration refuseRefreshing(Cursor cursor) {
        return stale.refuse(outstanding[cursor.step()], 10, RECENT_FINISHES);
    }
}
