package dev.weir.diagnostics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Submits from several threads at once for a fixed time and counts what was acknowledged: the in-process half of the
 * enqueue benchmark, where an application's own threads call {@code JobSubmitter} with no HTTP in between.
 *
 * <p>Each thread calls its {@link Submission} until the time is up; a call that throws counts as an error (the first
 * one's message is kept) and the thread goes on, so that one bad moment does not end the run.
 */
public final class SubmitLoad {

    /** One call that submits; answers how many jobs it submitted. */
    @FunctionalInterface
    public interface Submission {
        int submit() throws Exception;
    }

    /** What a run did: jobs acknowledged, calls that failed and the first failure, and how long it took. */
    public record Result(long jobs, long calls, long errors, String firstError, double seconds) {
    }

    private SubmitLoad() {
    }

    /**
     * Runs {@code threads} tasks on {@code executor}, each calling {@code submission} until {@code duration} has
     * passed, and waits for all of them (a call under way when the time is up still finishes and counts).
     */
    public static Result run(Executor executor, int threads, Duration duration, Submission submission)
            throws InterruptedException {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, was " + threads);
        }
        AtomicLong jobs = new AtomicLong();
        AtomicLong calls = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        List<CompletableFuture<Void>> running = new ArrayList<>(threads);
        for (int i = 0; i < threads; i++) {
            running.add(CompletableFuture.runAsync(() -> {
                while (System.nanoTime() - end < 0) {
                    try {
                        jobs.addAndGet(submission.submit());
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        firstError.compareAndSet(null, e.getClass().getSimpleName() + ": " + e.getMessage());
                    }
                    calls.incrementAndGet();
                }
            }, executor));
        }
        try {
            CompletableFuture.allOf(running.toArray(CompletableFuture[]::new))
                    .get(duration.toMillis() + 60_000, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the submitting threads did not finish: " + e, e);
        }
        return new Result(jobs.get(), calls.get(), errors.get(), firstError.get(),
                (System.nanoTime() - start) / 1e9);
    }
}
