package dev.weir.dispatch;

import dev.weir.metrics.JobEvent;
import dev.weir.metrics.JobLog;
import dev.weir.metrics.JobLogLine;
import dev.weir.metrics.Submitted;
import dev.weir.metrics.WeirMetrics;
import dev.weir.store.ClaimedJob;
import dev.weir.store.Finish;
import dev.weir.store.JobState;
import dev.weir.store.JobStore;
import dev.weir.store.Transactor;
import java.time.Duration;
import dev.weir.concurrency.Permit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One completer lane: writes the outcomes of its attempts in batches and only then gives their permits back.
 *
 * <p>An instance has {@link Engine#LANES} lanes, each with its own thread, connection and attempts (ADR 0032): an
 * attempt's outcome comes back to the lane that started it, and the jobs a lane's turn claims are the lane's. A lane
 * takes whatever outcomes are waiting (up to {@link #MAX_BATCH}) and writes them in one statement. While other
 * attempts of the lane are still running it lingers a little (at most {@link #LINGER}) for their outcomes, so that
 * jobs claimed together are recorded — and their permits come back — together, and the next claim is a full batch
 * again; with nothing else running it writes at once, so an idle queue pays no delay.
 *
 * <p><b>Renewal.</b> In the same statement it claims the next jobs of each queue whose attempts it records, on the
 * permits those attempts held ({@linkplain QueueDispatcher#renew renewal}): under load a worker's permit goes from
 * one job to the next with one statement in between, which commits by itself, on a connection this thread keeps
 * (ADR 0026), and without waking the dispatcher. While several lanes carry attempts of a queue, each claims only its
 * part of that queue ({@link Lanes.Part}), so that two lanes' statements do not meet on the same jobs.
 *
 * <p>A permit is released (or handed over to a next job) only after its outcome is committed (DESIGN invariant 1),
 * so the running rows never outnumber the permits held. If the database fails, the batch is retried with back-off
 * and its permits stay held: a dispatcher could not claim anything meanwhile anyway.
 */
final class Completer {

    static final int MAX_BATCH = 1000;
    /** The longest an outcome waits for others to join its batch. */
    static final Duration LINGER = Duration.ofMillis(2);
    private static final Logger LOG = Logger.getLogger(Completer.class.getName());
    private static final Duration MAX_RETRY_WAIT = Duration.ofSeconds(1);

    record Settled(Attempt attempt, Finish finish) {
    }

    /** Follow-up jobs a batch inserted, for the metrics once it has committed. */
    private record FollowUps(List<dev.weir.store.NewJob> jobs, List<JobStore.Inserted> inserted) {
    }

    private final Transactor transactor;
    /** The dispatcher of each queue, for renewals; null for a queue this instance does not serve. */
    private final Function<String, QueueDispatcher> dispatchers;
    /** This lane's index among the instance's lanes. */
    private final int lane;
    /** The part of a queue this lane's renewals claim from now ({@link Lanes#part}). */
    private final PartOf part;
    /**
     * Attempts this lane carries whose outcome it has not been handed yet, queue by queue: outcomes that may soon join
     * a batch ({@link #load}), and which queues this lane shares with the other lanes ({@link #carrying}).
     */
    private final Map<String, AtomicInteger> queueLoads = new ConcurrentHashMap<>();

    /** The part of queue {@code queue} lane {@code lane} claims from now. */
    @FunctionalInterface
    interface PartOf {
        Lanes.Part of(int lane, String queue);
    }
    private final LinkedBlockingQueue<Settled> pending = new LinkedBlockingQueue<>();
    private final Thread thread;
    private final WeirMetrics metrics;
    /** Starts attempts on the executor ({@link JobRunner#start}). */
    private final Consumer<List<Attempt>> starter;
    /** The completer thread's kept connection for its turns (ADR 0026); only that thread touches it. */
    private Transactor.Session session;
    private volatile boolean stopping;
    /** The queues of the batch being written; empty between batches. */
    private volatile Set<String> writing = Set.of();

    Completer(Transactor transactor, Function<String, QueueDispatcher> dispatchers, int lane,
            PartOf part, ThreadFactory threads, WeirMetrics metrics, Consumer<List<Attempt>> starter) {
        this.transactor = transactor;
        this.starter = starter;
        this.metrics = metrics;
        this.dispatchers = dispatchers;
        this.lane = lane;
        this.part = part;
        this.thread = threads.newThread(this::run);
        this.thread.setName("weir-completer-" + lane);
    }

    void start() {
        thread.start();
    }

    /** Makes these attempts this lane's: their outcomes come here, and this lane renews their permits. */
    void adopt(List<Attempt> attempts) {
        for (Attempt a : attempts) {
            a.lane(this);
            queueLoads.computeIfAbsent(a.queue(), q -> new AtomicInteger()).incrementAndGet();
        }
    }

    /** Attempts this lane carries whose outcome it has not been handed yet, of every queue. */
    int load() {
        int n = 0;
        for (AtomicInteger q : queueLoads.values()) {
            n += q.get();
        }
        return n;
    }

    /**
     * Whether this lane carries attempts of {@code queue} now: some whose outcome has not come, or some in the batch
     * being written (whose renewals will carry their permits on). A lane in the middle of its turn has often been
     * handed every outcome.
     */
    boolean carrying(String queue) {
        AtomicInteger n = queueLoads.get(queue);
        return (n != null && n.get() > 0) || writing.contains(queue);
    }

    /** Queues an outcome of one of this lane's attempts; the caller must have won {@link Attempt#settle()}. */
    void submit(Attempt attempt, Finish finish) {
        queueLoads.get(attempt.queue()).decrementAndGet();
        pending.add(new Settled(attempt, finish));
    }

    /** Writes what is queued, then stops; waits at most {@code timeout}. */
    void stop(Duration timeout) throws InterruptedException {
        stopping = true;
        thread.join(Math.max(1, timeout.toMillis()));
        if (thread.isAlive()) {
            thread.interrupt();
            thread.join(1000);
        }
        // Anything left (database down for the whole drain) is abandoned: its rows stay running and the
        // rescuer of another instance takes them; the permits still come back.
        Settled left;
        while ((left = pending.poll()) != null) {
            left.attempt().permit().release();
        }
    }

    private void run() {
        try (Transactor.Session kept = transactor.session()) {
            session = kept;
            loop();
        }
    }

    private void loop() {
        List<Settled> batch = new ArrayList<>();
        long retryWaitMs = 50;
        while (true) {
            try {
                if (batch.isEmpty()) {
                    Settled first = pending.poll(100, TimeUnit.MILLISECONDS);
                    if (first == null) {
                        if (stopping) {
                            return;
                        }
                        continue;
                    }
                    batch.add(first);
                    pending.drainTo(batch, MAX_BATCH - 1);
                    linger(batch);
                }
                try {
                    write(batch);
                } finally {
                    writing = Set.of();
                }
                batch.clear();
                retryWaitMs = 50;
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (stopping) {
                    LOG.log(Level.WARNING, "Weir: could not record " + batch.size()
                            + " job outcomes while stopping; another instance will rescue those jobs", e);
                    batch.forEach(s -> s.attempt().permit().release());
                    batch.clear();
                    continue;
                }
                LOG.log(Level.WARNING, "Weir: could not record " + batch.size() + " job outcomes; retrying in "
                        + retryWaitMs + " ms", e);
                try {
                    Thread.sleep(retryWaitMs);
                } catch (InterruptedException ie) {
                    return;
                }
                retryWaitMs = Math.min(retryWaitMs * 2, MAX_RETRY_WAIT.toMillis());
            }
        }
    }

    /**
     * Waits up to {@link #LINGER} for the outcomes of the lane's attempts that were running when this batch began (not
     * for attempts claimed since: under steady load there always are some), while the batch has room.
     */
    private void linger(List<Settled> batch) throws InterruptedException {
        long until = System.nanoTime() + LINGER.toNanos();
        int target = Math.min(MAX_BATCH, batch.size() + load());
        while (batch.size() < target && !stopping) {
            long left = until - System.nanoTime();
            if (left <= 0) {
                return;
            }
            Settled next = pending.poll(left, TimeUnit.NANOSECONDS);
            if (next == null) {
                return;
            }
            batch.add(next);
            pending.drainTo(batch, MAX_BATCH - batch.size());
        }
    }

    private void write(List<Settled> batch) {
        List<Finish> finishes = new ArrayList<>(batch.size());
        boolean followingUp = false;
        for (Settled s : batch) {
            finishes.add(s.finish());
            followingUp |= !s.finish().followUps().isEmpty();
        }
        Map<String, List<Permit>> byQueue = permitsByQueue(batch);
        writing = byQueue.keySet(); // until the loop's finally: the lane carries these queues while it writes
        List<QueueDispatcher.Renewal> renewals = renewals(byQueue);
        Map<Long, JobState> applied;
        List<FollowUps> followUps = new ArrayList<>();
        try {
            applied = followingUp ? writeInTransaction(finishes, renewals, followUps) : writeAlone(finishes, renewals);
        } catch (RuntimeException e) {
            renewals.forEach(QueueDispatcher.Renewal::abandon);
            throw e;
        }
        // Permits handed over to next jobs are spent: releasing them below does nothing. The jobs of every queue of
        // the turn start together, in one hand-over to the runner's relay (ADR 0041).
        List<Attempt> next = new ArrayList<>();
        for (QueueDispatcher.Renewal r : renewals) {
            next.addAll(r.committed());
        }
        adopt(next);
        starter.accept(next);
        long now = System.nanoTime();
        for (Settled s : batch) {
            s.attempt().permit().release();
        }
        for (FollowUps f : followUps) {
            Submitted.record(metrics, f.jobs(), f.inserted());
        }
        // Metrics and lifecycle lines after the permits are back: nothing here holds up the next claim.
        for (Settled s : batch) {
            record(s.attempt(), s.finish(), applied.get(s.finish().id()), now);
        }
    }

    /**
     * The usual turn (ADR 0026): the outcomes and every queue's renewal claim in one statement that commits by
     * itself, one round trip, on the connection this thread keeps, however many queues the batch spans.
     */
    private Map<Long, JobState> writeAlone(List<Finish> finishes, List<QueueDispatcher.Renewal> renewals) {
        List<JobStore.ClaimRequest> claims = new ArrayList<>(renewals.size());
        for (QueueDispatcher.Renewal r : renewals) {
            claims.add(r.begin(lane, part.of(lane, r.queue())));
        }
        JobStore.Turn turn = session.alone(sql -> JobStore.turn(sql, finishes, claims));
        if (renewals.size() == 1) {
            renewals.get(0).claimedAlone(turn.claimed());
        } else if (!renewals.isEmpty()) {
            Map<String, List<ClaimedJob>> byQueue = new HashMap<>();
            for (ClaimedJob job : turn.claimed()) {
                byQueue.computeIfAbsent(job.queue(), q -> new ArrayList<>()).add(job);
            }
            for (QueueDispatcher.Renewal r : renewals) {
                r.claimedAlone(byQueue.getOrDefault(r.queue(), List.of()));
            }
        }
        return turn.finished();
    }

    /**
     * A batch with follow-up jobs: the outcomes, the follow-ups they bring and the renewal claims in one transaction,
     * so that a follow-up is stored exactly when its completion is.
     */
    private Map<Long, JobState> writeInTransaction(List<Finish> finishes, List<QueueDispatcher.Renewal> renewals,
            List<FollowUps> followUps) {
        return transactor.inNewTransaction(sql -> {
            followUps.clear();
            Map<Long, JobState> done = JobStore.finishStates(sql, finishes);
            insertFollowUps(sql, finishes, done.keySet(), followUps);
            for (QueueDispatcher.Renewal r : renewals) {
                r.claim(sql);
            }
            return done;
        });
    }

    /**
     * The metrics and the log line of one committed outcome: {@code result} is the state it left the job in (the
     * outcome's, or cancelled when an operator asked for it), null when it was ignored.
     */
    private void record(Attempt a, Finish f, JobState result, long now) {
        boolean applied = result != null;
        boolean ran = a.started();
        long runNanos = a.runNanos(now);
        if (ran) {
            metrics.started(a.queue(), a.kind(), a.attempt() > 1, a.pickupNanos());
        }
        boolean operatorCancel = result == JobState.CANCELLED && f.state() != JobState.CANCELLED;
        JobEvent event = operatorCancel ? JobEvent.CANCELLED : JobEvent.of(f, ran);
        if (!applied) {
            JobLog.log(JobEvent.IGNORED, a.queue(), a.kind(), a.id(), a.attempt(), "outcome", event.label(),
                    "reason", "the attempt was rescued or cancelled before its outcome was written");
            return;
        }
        metrics.ended(a.queue(), a.kind(), event, runNanos);
        if (!JobLog.enabled(event)) {
            return;
        }
        String runMs = runNanos < 0 ? null : Long.toString(runNanos / 1_000_000);
        switch (event) {
            case COMPLETED -> JobLog.log(event, a.queue(), a.kind(), a.id(), a.attempt(), "run_ms", runMs);
            case FAILED -> JobLog.log(event, a.queue(), a.kind(), a.id(), a.attempt(), "run_ms", runMs,
                    "retry_in_ms", Long.toString(f.delayMs()), "error", JobLogLine.firstLine(f.error()));
            case SNOOZED -> JobLog.log(event, a.queue(), a.kind(), a.id(), a.attempt(), "run_ms", runMs,
                    "delay_ms", Long.toString(f.delayMs()));
            case DISCARDED, CANCELLED -> JobLog.log(event, a.queue(), a.kind(), a.id(), a.attempt(), "run_ms", runMs,
                    "reason", operatorCancel ? "cancelled by an operator" : JobLogLine.firstLine(f.error()));
            default -> JobLog.log(event, a.queue(), a.kind(), a.id(), a.attempt(), "state", f.state().dbName());
        }
    }

    /**
     * The follow-up jobs of the completions that applied, in the same transaction: stored exactly when their
     * completion is. Their queues are notified in it too (the transaction has one resource and commits in one
     * phase, so PostgreSQL accepts the NOTIFY), and a renewal claim after this may already take them.
     */
    private static void insertFollowUps(dev.weir.store.Sql sql, List<Finish> finishes, Set<Long> applied,
            List<FollowUps> inserted) {
        List<dev.weir.store.NewJob> next = new ArrayList<>();
        for (Finish f : finishes) {
            if (!f.followUps().isEmpty() && applied.contains(f.id())) {
                next.addAll(f.followUps());
            }
        }
        if (next.isEmpty()) {
            return;
        }
        Set<String> ready = new java.util.LinkedHashSet<>();
        List<JobStore.Inserted> stored = JobStore.insert(sql, next);
        for (JobStore.Inserted job : stored) {
            if (job.state() == dev.weir.store.JobState.AVAILABLE) {
                ready.add(job.queue());
            }
        }
        JobStore.announce(sql, ready);
        inserted.add(new FollowUps(next, stored));
    }

    /** The permits of this batch, queue by queue, in the order the queues first appear. */
    private static Map<String, List<Permit>> permitsByQueue(List<Settled> batch) {
        Map<String, List<Permit>> byQueue = new LinkedHashMap<>();
        for (Settled s : batch) {
            Permit p = s.attempt().permit();
            byQueue.computeIfAbsent(p.queue(), q -> new ArrayList<>()).add(p);
        }
        return byQueue;
    }

    /** The renewals the dispatchers plan for the permits of this batch, queue by queue. */
    private List<QueueDispatcher.Renewal> renewals(Map<String, List<Permit>> byQueue) {
        List<QueueDispatcher.Renewal> renewals = new ArrayList<>(byQueue.size());
        byQueue.forEach((queue, permits) -> {
            QueueDispatcher d = dispatchers.apply(queue);
            QueueDispatcher.Renewal r = d == null ? null : d.renew(permits);
            if (r != null) {
                renewals.add(r);
            }
        });
        return renewals;
    }
}
