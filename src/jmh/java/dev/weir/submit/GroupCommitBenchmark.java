package dev.weir.submit;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
 * Group commit's own cost (ADR 0030): what {@link GroupCommit#run} adds to a submission made outside a transaction.
 * As in the server, at most {@value DefaultJobSubmitter#GROUPS_IN_FLIGHT} groups run at once, a second only once
 * {@value DefaultJobSubmitter#PARALLEL_JOBS} requests wait, and a group takes at most 1000 requests of weight 1; 16
 * callers are the enqueue benchmark's threads. The requests per group of a run
 * are printed at its end.
 *
 * <ul>
 * <li>{@code alone} and {@code sixteen}: a runner that answers at once, so what is measured is the lock, the
 * hand-over and the wake-ups. A group runs for so short a time that a caller almost always finds none running and
 * leads a group of its own.</li>
 * <li>{@code sixteenCommitting}: a runner that waits {@value #COMMIT_MICROS} µs, without using a core, as a group
 * waits for its statement and commit. Callers now pile up behind the running groups and are taken together, so
 * this shows how many requests a group gathers and how close the callers get to the bound that two groups in flight
 * set, in operations per second of all 16 threads together.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class GroupCommitBenchmark {

    /** How long the committing runner's group takes, standing in for a group's statement and commit. */
    static final long COMMIT_MICROS = 500;

    GroupCommit<Integer, Integer> groups;
    GroupCommit<Integer, Integer> committing;

    @Setup(Level.Trial)
    public void create() {
        int inFlight = DefaultJobSubmitter.GROUPS_IN_FLIGHT;
        int parallel = DefaultJobSubmitter.PARALLEL_JOBS;
        GroupCommit.Runner<Integer, Integer> answerAtOnce = List::copyOf;
        groups = new GroupCommit<>(inFlight, 1000, parallel, r -> 1, answerAtOnce);
        GroupCommit.Runner<Integer, Integer> waitThenAnswer = group -> {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(COMMIT_MICROS));
            return List.copyOf(group);
        };
        committing = new GroupCommit<>(inFlight, 1000, parallel, r -> 1, waitThenAnswer);
    }

    @TearDown(Level.Trial)
    public void report() {
        for (GroupCommit<Integer, Integer> g : List.of(groups, committing)) {
            GroupCommit.Counts counts = g.counts();
            if (counts.groups() > 0) {
                System.out.printf("%n%d requests in %d groups: %.2f per group%n", counts.requests(), counts.groups(),
                        counts.requests() / (double) counts.groups());
            }
            if (g.waiting() != 0) {
                throw new IllegalStateException(g.waiting() + " requests left waiting");
            }
        }
    }

    /** One caller: a group of one per request. */
    @Benchmark
    @Threads(1)
    public Integer alone() {
        return groups.run(1);
    }

    /** 16 callers at once. */
    @Benchmark
    @Threads(16)
    public Integer sixteen() {
        return groups.run(1);
    }

    /** 16 callers at once, each group taking {@value #COMMIT_MICROS} µs: operations per second of all of them. */
    @Benchmark
    @Threads(16)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public Integer sixteenCommitting() {
        return committing.run(1);
    }
}
