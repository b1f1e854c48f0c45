package dev.weir.concurrency;

import dev.weir.concurrency.FairShare.Standing;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The fair-share arithmetic alone, no lock and no state change: one {@link FairShare#grant} over a snapshot of
 * {@code queues} standings, as {@link OverflowAllocator} computes it under its lock for every request and, for each
 * starved queue, after every release. Every other queue contends (half of them hold permits, half only ask), so
 * the whole map is summed.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class FairShareBenchmark {

    /** Configured queues, so entries in the map each grant walks. */
    @Param({"2", "8", "32"})
    int queues;

    int capacity;
    Map<String, Standing> standings;
    String requester;

    @Setup(Level.Trial)
    public void create() {
        capacity = 4 * queues;
        standings = new LinkedHashMap<>();
        for (int i = 0; i < queues; i++) {
            // Even queues hold one permit; odd ones hold none but asked for some.
            standings.put("queue-" + i, new Standing(1 + i % 3, i % 2 == 0 ? 1 : 0, i % 2 == 0 ? 0 : 4));
        }
        requester = "queue-" + (queues / 2);
    }

    /** {@link FairShare#grant} of 4 permits to one queue among {@code queues}. */
    @Benchmark
    public int grant() {
        return FairShare.grant(capacity, standings, requester, 4);
    }
}
