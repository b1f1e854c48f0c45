package dev.weir.dispatch;

import dev.weir.api.Outcome;
import dev.weir.store.ClaimedJob;
import dev.weir.store.Finish;
import dev.weir.store.JobState;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Turns what happened to an attempt into the row update that records it ({@link Finish}). The one place that
 * decides, for example, that a failure on the last attempt discards the job.
 */
public final class Outcomes {

    /** Error texts longer than this are cut, so one broken job cannot bloat the table. */
    public static final int MAX_ERROR_LENGTH = 4000;

    private Outcomes() {
    }

    public static Finish of(ClaimedJob job, Outcome outcome) {
        if (outcome instanceof Outcome.Complete) {
            return new Finish(job.id(), job.lease(), JobState.COMPLETED, 0, null, false);
        } else if (outcome instanceof Outcome.Fail f) {
            return retryOrDiscard(job,
                    Backoff.delay(job.attempt(), ThreadLocalRandom.current().nextDouble()).toMillis(), f.error());
        } else if (outcome instanceof Outcome.RetryAfter r) {
            return retryOrDiscard(job, r.delay().toMillis(), r.error());
        } else if (outcome instanceof Outcome.Snooze s) {
            return new Finish(job.id(), job.lease(), s.delay().isZero() ? JobState.AVAILABLE : JobState.SCHEDULED,
                    s.delay().toMillis(), null, true);
        } else if (outcome instanceof Outcome.Discard d) {
            return new Finish(job.id(), job.lease(), JobState.DISCARDED, 0, cut(d.reason()), false);
        } else if (outcome instanceof Outcome.Cancel c) {
            return new Finish(job.id(), job.lease(), JobState.CANCELLED, 0, cut(c.reason()), false);
        }
        throw new IllegalArgumentException("unknown outcome " + outcome);
    }

    /** The handler threw: a failure, with the exception as its error. */
    public static Finish thrown(ClaimedJob job, Throwable error) {
        return of(job, Outcome.fail(describe(error)));
    }

    /** The handler ran past its deadline: a failure that spends the attempt. */
    public static Finish deadlineExceeded(ClaimedJob job, long deadlineMs) {
        return of(job, Outcome.fail("deadline exceeded: the attempt ran longer than " + deadlineMs + " ms"));
    }

    /** The instance stopped before the attempt finished: back to available at once, attempt spent. */
    public static Finish abandoned(ClaimedJob job, String instance) {
        return retryOrDiscard(job, 0, "abandoned: instance " + instance + " shut down before the attempt finished");
    }

    /** The executor refused the job: back to available at once, attempt given back. */
    public static Finish rejected(ClaimedJob job) {
        return new Finish(job.id(), job.lease(), JobState.AVAILABLE, 0, null, true);
    }

    private static Finish retryOrDiscard(ClaimedJob job, long delayMs, String error) {
        if (job.lastAttempt()) {
            return new Finish(job.id(), job.lease(), JobState.DISCARDED, 0, cut(error), false);
        }
        JobState next = delayMs <= 0 ? JobState.AVAILABLE : JobState.RETRYABLE;
        return new Finish(job.id(), job.lease(), next, Math.max(0, delayMs), cut(error), false);
    }

    /** The exception's class, message and the top of its stack trace. */
    static String describe(Throwable error) {
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        return cut(trace.toString());
    }

    static String cut(String text) {
        return text.length() <= MAX_ERROR_LENGTH ? text : text.substring(0, MAX_ERROR_LENGTH - 1) + "…";
    }
}
