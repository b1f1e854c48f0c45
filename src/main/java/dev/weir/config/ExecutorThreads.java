package dev.weir.config;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * Whether Liberty's default executor keeps enough threads for the jobs the queues may run at once (ADR 0042). Jobs run
 * on the managed executor {@code concurrent/weir-jobs}, whose tasks share Liberty's default executor with the HTTP
 * requests. That pool keeps {@code coreThreads} threads ({@value #VARIABLE}) and grows beyond them only one thread at
 * a time, every second and a half or so: while it is smaller than the permits, jobs that block (a remote call, a
 * sleep) wait for a thread while holding their permits: on a new server, a queue of 100 workers ran such jobs at about
 * three fifths of the rate in its first minute. Pure arithmetic; the caller reads the variable and logs the advice.
 */
public final class ExecutorThreads {

    /** The server variable (an environment variable) that sets the default executor's {@code coreThreads}. */
    public static final String VARIABLE = "WEIR_EXECUTOR_CORE_THREADS";
    /** Threads kept for HTTP requests beside the jobs: a single submission holds its thread while its group commits. */
    public static final int FOR_REQUESTS = 40;

    private ExecutorThreads() {
    }

    /**
     * The most jobs one instance may run at once: the global budget in weighted mode, else the sum of the queues'
     * {@code max-workers}.
     */
    public static int jobsAtOnce(WeirSettings settings) {
        if (settings.weighted()) {
            return settings.globalMaxWorkers().getAsInt();
        }
        long sum = 0;
        for (QueueSettings q : settings.queues()) {
            sum += q.maxWorkers();
        }
        return (int) Math.min(Integer.MAX_VALUE, sum);
    }

    /** The value of {@value #VARIABLE} as a number of threads; empty when it is unset or not a whole number. */
    public static OptionalInt parse(Optional<String> value) {
        if (value.isEmpty()) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(value.get().trim()));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** The threads the executor should keep for these settings: a thread per job that may run, and the requests'. */
    public static int wanted(WeirSettings settings) {
        return (int) Math.min(Integer.MAX_VALUE, (long) jobsAtOnce(settings) + FOR_REQUESTS);
    }

    /** The start-up warning when the executor keeps {@code coreThreads} threads and the settings want more. */
    public static Optional<String> advice(WeirSettings settings, int coreThreads) {
        int wanted = wanted(settings);
        if (coreThreads >= wanted) {
            return Optional.empty();
        }
        return Optional.of("Weir: the queues may run " + jobsAtOnce(settings) + " jobs at once on this instance, but"
                + " Liberty's default executor, which runs them and the HTTP requests, keeps only " + coreThreads
                + " threads (" + VARIABLE + ") and adds more one at a time, every second or two: until it has grown,"
                + " jobs that block wait for a thread while holding their permits. Set " + VARIABLE + " to at least "
                + wanted + " (a thread per job, and " + FOR_REQUESTS + " for requests; ADR 0042)");
    }
}
