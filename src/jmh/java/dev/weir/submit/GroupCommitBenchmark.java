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
 * <li>{@code sixteenGathering}: as a bounded queue's single submissions run (ADR 0011, ADR 0030): every request
 * {@code gathers}, so one group runs at a time and the next waits for the callers the last one set free, and a group
 * takes {@value #ADMIT_MICROS} µs, about what a group of 16 admissions and its commit take. The bound is 16 requests
 * a group's time; what falls short of it is mostly the time the callers take to come back.</li>
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
    /** How long the gathering runner's group takes, standing in for a bounded queue's admission and commit. */
    static final long ADMIT_MICROS = 900;

    GroupCommit<Integer, Integer> groups;
    GroupCommit<Integer, Integer> committing;
    GroupCommit<Integer, Integer> gathering;

    @Setup(Level.Trial)
    public void create() {
        int inFlight = DefaultJobSubmitter.GROUPS_IN_FLIGHT;
        int parallel = DefaultJobSubmitter.PARALLEL_JOBS;
        GroupCommit.Runner<Integer, Integer> answerAtOnce = List::copyOf;
        groups = new GroupCommit<>(inFlight, 1000, parallel, r -> 1, answerAtOnce);
        GroupCommit.Runner<Integer, Integer> waitThenAnswer = group -> {
            waitFor(COMMIT_MICROS);
            return List.copyOf(group);
        };
        committing = new GroupCommit<>(inFlight, 1000, parallel, r -> 1, waitThenAnswer);
        GroupCommit.Runner<Integer, Integer> admitThenAnswer = group -> {
            waitFor(ADMIT_MICROS);
            return List.copyOf(group);
        };
        gathering = new GroupCommit<>(inFlight, 1000, parallel, r -> 1, r -> true, admitThenAnswer);
    }

    /**
     * Waits without using a core, as a thread waits for the database. In a loop: a caller's thread may return early
     * from a park once, after another caller woke it when it was not parked (GroupCommit).
     */
    static void waitFor(long micros) {
        long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(micros);
        for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    @TearDown(Level.Trial)
    public void report() {
        for (GroupCommit<Integer, Integer> g : List.of(groups, committing, gathering)) {
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

    /**
     * 16 callers at once, as single submissions to a bounded queue: one group at a time, each taking
     * {@value #ADMIT_MICROS} µs: operations per second of all of them.
     */
    @Benchmark
    @Threads(16)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public Integer sixteenGathering() {
        return gathering.run(1);
    }
}
