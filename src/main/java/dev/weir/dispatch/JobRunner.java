package dev.weir.dispatch;

import dev.weir.api.JobHandler;
import dev.weir.api.JobRequest;
import dev.weir.config.WeirSettings;
import dev.weir.metrics.JobEvent;
import dev.weir.metrics.JobLog;
import dev.weir.store.NewJob;
import dev.weir.submit.Submissions;
import dev.weir.api.Outcome;
import dev.weir.store.Finish;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Runs attempts on the executor and hands each outcome to its {@link Completer} lane. Keeps the set of attempts in
 * flight on this instance, so the deadline watchdog and the drain can find them.
 */
final class JobRunner {

    private static final Logger LOG = Logger.getLogger(JobRunner.class.getName());

    private final HandlerRegistry handlers;
    private final ArgsCodec codec;
    private final Relay<Attempt> relay;
    /** Gives attempts that have no lane yet (a dispatcher's claim) to the lanes ({@link Lanes#split}). */
    private final Consumer<List<Attempt>> assign;
    private final Attempt.ProgressSink progress;
    private final WeirSettings settings;
    private final Set<Attempt> inFlight = ConcurrentHashMap.newKeySet();

    JobRunner(WeirSettings settings, HandlerRegistry handlers, ArgsCodec codec, Executor executor,
            Consumer<List<Attempt>> assign, Attempt.ProgressSink progress) {
        this.settings = settings;
        this.progress = progress;
        this.handlers = handlers;
        this.codec = codec;
        this.relay = new Relay<>(executor, this::run, this::refused);
        this.assign = assign;
    }

    /**
     * Starts a batch of attempts on the executor, through the {@link Relay}: they wait in its queue, in claim order,
     * and its tasks take them one after another, each making sure another task is on its way before it runs an
     * attempt. Each task the executor starts costs a context and often a thread's wake-up; one task per attempt (or a
     * tree of them, ADR 0026, amendment 4) spent most of a no-op job's server time on them (ADR 0041). If the
     * executor refuses a task (or fails to take it in any other way), one waiting attempt's job goes back without
     * spending it, and the hand-over is tried again.
     */
    void start(List<Attempt> attempts) {
        if (!attempts.isEmpty() && attempts.get(0).lane() == null) {
            assign.accept(attempts);
        }
        for (Attempt a : attempts) {
            a.bind(progress);
            inFlight.add(a);
        }
        relay.start(attempts);
    }

    private void refused(Attempt attempt, RuntimeException e) {
        JobLog.log(JobEvent.REJECTED, attempt.queue(), attempt.kind(), attempt.id(), attempt.attempt(),
                "state", "available", "reason", "the executor refused the attempt: " + e.getMessage());
        settle(attempt, Outcomes.rejected(attempt.job()));
    }

    /** Attempts started here and not yet settled. */
    Set<Attempt> inFlight() {
        return inFlight;
    }

    /**
     * Ends an attempt with {@code finish} if nobody else has; the permit comes back once the outcome is written.
     * Returns whether this call was the one that ended it.
     */
    boolean settle(Attempt attempt, Finish finish) {
        if (!attempt.settle()) {
            return false;
        }
        inFlight.remove(attempt);
        attempt.lane().submit(attempt, finish);
        return true;
    }

    private void run(Attempt attempt) {
        Finish finish;
        try {
            finish = outcome(attempt);
        } catch (Throwable t) {
            // Last line of defence: even an Error while computing the outcome must not lose the permit.
            finish = Outcomes.thrown(attempt.job(), t);
        }
        if (!settle(attempt, finish)) {
            LOG.fine(() -> "Weir: " + attempt + " returned after it was already ended (deadline or shutdown)");
        }
        // The outcome is logged by the completer once it is committed (JobEvent).
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Finish outcome(Attempt attempt) {
        JobHandler handler = handlers.find(attempt.kind()).orElse(null);
        if (handler == null) {
            return Outcomes.of(attempt.job(), Outcome.discard("unknown kind '" + attempt.kind()
                    + "': no handler on instance that claimed it"));
        }
        try {
            attempt.setArgs(codec.decode(attempt.job().argsJson(), handler.kind().argsType()));
        } catch (RuntimeException e) {
            return Outcomes.of(attempt.job(), Outcome.discard("bad args: cannot decode " + attempt.job().argsJson()
                    + " as " + handler.kind().argsType().getName() + ": " + e.getMessage()));
        }
        if (!attempt.enter()) {
            // Cancelled before it started: whoever cancelled it has already recorded the outcome.
            attempt.leave();
            return Outcomes.of(attempt.job(), Outcome.fail("stopped before the handler started"));
        }
        try {
            if (JobLog.enabled(JobEvent.STARTED)) {
                JobLog.log(JobEvent.STARTED, attempt.queue(), attempt.kind(), attempt.id(), attempt.attempt(),
                        "pickup_ms", Long.toString(attempt.pickupNanos() / 1_000_000));
            }
            Outcome outcome = handler.handle(attempt);
            if (outcome == null) {
                return Outcomes.of(attempt.job(), Outcome.fail("handler " + handler.getClass().getName()
                        + " returned no outcome"));
            }
            if (outcome instanceof Outcome.Complete c && !c.followUps().isEmpty()) {
                return completeWithFollowUps(attempt, c.followUps());
            }
            return Outcomes.of(attempt.job(), outcome);
        } catch (Throwable t) {
            return Outcomes.thrown(attempt.job(), t);
        } finally {
            attempt.leave();
        }
    }

    /**
     * A completion with follow-up jobs: each is encoded and validated like a submission; one that is not valid turns
     * the outcome into a failure naming it, so nothing is half stored.
     */
    private Finish completeWithFollowUps(Attempt attempt, java.util.List<JobRequest<?>> requests) {
        if (requests.size() > Submissions.MAX_BATCH) {
            return Outcomes.of(attempt.job(), Outcome.fail("follow-up jobs: " + requests.size() + " is more than "
                    + Submissions.MAX_BATCH));
        }
        java.util.List<NewJob> next = new java.util.ArrayList<>(requests.size());
        java.time.Instant now = java.time.Instant.now();
        for (int i = 0; i < requests.size(); i++) {
            JobRequest<?> r = requests.get(i);
            try {
                String json = r.args() == null ? null : Submissions.requireObject(codec.encode(r.args()));
                NewJob job = Submissions.validate(settings, r.kind().name(), json, r.options(), now);
                if (settings.queue(job.queue()).orElseThrow().maxPending().isPresent()) {
                    // Admission would have to refuse inside the completer's batch; not supported yet.
                    throw new IllegalArgumentException("queue " + job.queue() + " is bounded (max-pending): follow-up"
                            + " jobs cannot go to a bounded queue yet");
                }
                next.add(job);
            } catch (RuntimeException e) {
                return Outcomes.of(attempt.job(), Outcome.fail("follow-up job " + (i + 1) + " of " + requests.size()
                        + " (kind " + r.kind().name() + ") is invalid: " + e.getMessage()));
            }
        }
        Finish done = Outcomes.of(attempt.job(), Outcome.complete());
        return new Finish(done.id(), done.lease(), done.state(), done.delayMs(), done.error(), done.refund(), next);
    }
}
