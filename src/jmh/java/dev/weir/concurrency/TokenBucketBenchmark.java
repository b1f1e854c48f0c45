package dev.weir.concurrency;

import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * A queue's rate limit: one {@link TokenBucket#tryTake} and the {@link TokenBucket#refund} of what it took, on the
 * real clock, so both calls refill from {@link System#nanoTime()}. One thread, as one dispatcher per queue uses
 * its bucket. The bucket is refunded to full every time, so every take is granted.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class TokenBucketBenchmark {

    TokenBucket bucket;

    @Setup(Level.Trial)
    public void create() {
        bucket = new TokenBucket(1000, 50);
    }

    /** {@link TokenBucket} take of 4 + refund of what was taken. */
    @Benchmark
    public int takeRefund() {
        int taken = bucket.tryTake(4);
        bucket.refund(taken);
        return taken;
    }
}
