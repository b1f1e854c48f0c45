package dev.weir.dispatch;

import dev.weir.api.JobContext;
import dev.weir.api.Progress;
import dev.weir.concurrency.Permit;
import dev.weir.json.Jsonp;
import dev.weir.store.ClaimedJob;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One attempt of a claimed job on this instance, from claim until its outcome is written: the job, the one
 * permit it runs on, and its cancellation signal.
 *
 * <p>Several parties may try to end an attempt (the handler returning, the deadline watchdog, a drain that runs
 * out of time); {@link #settle()} lets exactly one of them win. The worker thread is guarded by this object's
 * monitor so that {@link #cancel()} interrupts the handler's thread only while the handler runs on it.
 */
final class Attempt implements JobContext<Object> {

    private final ClaimedJob job;
    private final Permit permit;
    private final long deadlineNanos;
    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile boolean cancelled;
    private volatile Object args;
    /** Guarded by {@code this}. */
    private Thread worker;
    /** Writes progress for this attempt; set by the runner before the handler starts. */
    private volatile ProgressSink progressSink;
    /** The checkpoint last recorded for the job, starting with an earlier attempt's. */
    private volatile String checkpoint;
    /** When this instance claimed the job, when its handler started and when it returned (nanoTime; 0: not yet). */
    private final long claimedNanos = System.nanoTime();
    private volatile long startedNanos;
    private volatile long endedNanos;
    /** The completer lane this attempt's outcome goes to ({@link Completer#adopt}). */
    private volatile Completer lane;

    /** Where {@link #progress(Progress)} goes: the job's row, guarded by this attempt's lease. */
    interface ProgressSink {
        boolean write(ClaimedJob job, Progress progress);
    }

    Attempt(ClaimedJob job, Permit permit, long deadlineNanos) {
        this.job = job;
        this.permit = permit;
        this.deadlineNanos = deadlineNanos;
        this.checkpoint = job.checkpointJson();
    }

    void lane(Completer lane) {
        this.lane = lane;
    }

    Completer lane() {
        return lane;
    }

    void bind(ProgressSink sink) {
        this.progressSink = sink;
    }

    ClaimedJob job() {
        return job;
    }

    Permit permit() {
        return permit;
    }

    boolean pastDeadline(long nowNanos) {
        return nowNanos - deadlineNanos > 0;
    }

    /** Claims the right to write this attempt's outcome; true for exactly one caller. */
    boolean settle() {
        return settled.compareAndSet(false, true);
    }

    void setArgs(Object args) {
        this.args = args;
    }

    /** Asks the handler to stop: the flag it can poll, and an interrupt of its thread if it is running. */
    synchronized void cancel() {
        cancelled = true;
        if (worker != null) {
            worker.interrupt();
        }
    }

    /** The handler starts on the current thread; false if the attempt was cancelled before it started. */
    synchronized boolean enter() {
        worker = Thread.currentThread();
        if (cancelled) {
            return false;
        }
        startedNanos = System.nanoTime();
        return true;
    }

    /** The handler has returned: later cancels must not interrupt this (pooled) thread. */
    synchronized void leave() {
        if (startedNanos != 0) {
            endedNanos = System.nanoTime();
        }
        worker = null;
        Thread.interrupted();
    }

    /** Whether the handler started. */
    boolean started() {
        return startedNanos != 0;
    }

    /**
     * From when the job became due (its {@code run_at}, on the database's clock at the claim) to its handler's start:
     * the time it had been due when claimed, plus the time from the claim to the start on this instance's clock.
     * Meaningful once {@link #started()}.
     */
    long pickupNanos() {
        return job.dueMs() * 1_000_000 + Math.max(0, startedNanos - claimedNanos);
    }

    /** How long the handler ran, until {@code nowNanos} if it is still running; -1 if it never started. */
    long runNanos(long nowNanos) {
        long start = startedNanos;
        if (start == 0) {
            return -1;
        }
        long end = endedNanos;
        return Math.max(0, (end != 0 ? end : nowNanos) - start);
    }

    @Override
    public long id() {
        return job.id();
    }

    @Override
    public String kind() {
        return job.kind();
    }

    @Override
    public String queue() {
        return job.queue();
    }

    @Override
    public int attempt() {
        return job.attempt();
    }

    @Override
    public int maxAttempts() {
        return job.maxAttempts();
    }

    @Override
    public Object args() {
        return args;
    }

    @Override
    public boolean progress(Progress progress) {
        String checkpointJson = progress.checkpointJson();
        if (checkpointJson != null) {
            try (jakarta.json.JsonReader reader = Jsonp.PROVIDER.createReader(new java.io.StringReader(checkpointJson))) {
                reader.readValue();
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("checkpoint is not JSON: " + e.getMessage(), e);
            }
        }
        ProgressSink sink = progressSink;
        boolean written = sink != null && !settled.get() && sink.write(job, progress);
        if (written) {
            checkpoint = checkpointJson;
        }
        return written;
    }

    @Override
    public java.util.Optional<String> checkpoint() {
        return java.util.Optional.ofNullable(checkpoint);
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    @Override
    public String toString() {
        return "job " + job.id() + " (queue " + job.queue() + ", kind " + job.kind() + ", attempt " + job.attempt() + ")";
    }
}
