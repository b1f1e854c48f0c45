package dev.weir.dispatch;

import dev.weir.concurrency.Permit;
import dev.weir.concurrency.QueueCapacity;
import dev.weir.concurrency.TokenBucket;
import dev.weir.config.QueueSettings;
import dev.weir.metrics.WeirMetrics;
import dev.weir.store.ClaimKey;
import dev.weir.store.ClaimedJob;
import dev.weir.store.JobStore;
import dev.weir.store.Sql;
import dev.weir.store.Transactor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The dispatcher of one queue on this instance: a loop that claims jobs against permits it already holds and
 * starts them. It polls when rung (a {@code NOTIFY} for its queue, a permit coming back while it was out of
 * permits) and otherwise every {@code poll-interval}.
 *
 * <p>One poll, in this order (DESIGN §3.2):
 * <ol>
 * <li>take permits without blocking (when only a few are free while the queue's other jobs are finishing, look
 * again for at most {@link #GATHER}: their permits are about to come back together);</li>
 * <li>keep at most as many permits as the rate limit has tokens;</li>
 * <li>claim at most as many jobs as permits held, in one statement;</li>
 * <li>give back the permits (and tokens) the database could not use;</li>
 * <li>if no job was found, clear the queue's demand;</li>
 * <li>start each job with exactly one permit.</li>
 * </ol>
 * A full batch polls again at once: there may be more.
 *
 * <p><b>Renewal.</b> Under load the poll is mostly bypassed: when the completer records the outcomes of this
 * queue's attempts, it claims the queue's next jobs in the same transaction, on the permits those attempts held
 * ({@link #renew}). Each permit is handed over to a next job only after that transaction commits, so a job still
 * becomes running only against a permit already held (invariant 1), and the permits it cannot use are released as
 * usual. The rate limit and weighted fair share apply to renewals as to polls; a stopping dispatcher renews
 * nothing.
 */
final class QueueDispatcher {

    private static final Logger LOG = Logger.getLogger(QueueDispatcher.class.getName());
    private static final Duration MAX_ERROR_WAIT = Duration.ofSeconds(10);
    /** The longest a poll waits for permits that are about to come back. */
    static final Duration GATHER = Duration.ofMillis(1);
    private static final Duration GATHER_STEP = Duration.ofNanos(100_000);

    private final QueueSettings settings;
    private final QueueCapacity capacity;
    /** The queue's rate limit on this instance; null when it has none. */
    private final TokenBucket bucket;
    private final Transactor transactor;
    private final JobRunner runner;
    private final String instance;
    private final Wakeup wakeup = new Wakeup();
    private final Thread thread;
    private final int batchSize;
    private final WeirMetrics metrics;
    private final ClaimCursors cursors;
    private volatile boolean stopping;
    /** True while the last poll found no free permit: a permit coming back must then ring. */
    private volatile boolean starved;
    /** Set by {@link #wake()}: a notification or an announcement says there may be work. */
    private volatile boolean hinted;
    /**
     * Whether an operator has paused the queue, as far as this instance has heard (control messages, and the flag
     * read at start-up). While it is set a notification does not make the dispatcher claim: the claim would find
     * nothing. Only a hint: the polls go on at the poll interval and read the flag itself, and a poll that finds jobs
     * clears it, so a lost resume message costs at most one poll interval.
     */
    private volatile boolean pausedHint;
    /**
     * Whether the queue may have available jobs, as far as this dispatcher knows: true after a full claim, false
     * after a claim that found fewer jobs than permits. Only the dispatcher thread touches it.
     */
    private boolean mayHaveWork = true;

    QueueDispatcher(QueueSettings settings, QueueCapacity capacity, TokenBucket bucket, Transactor transactor,
            JobRunner runner, String instance, ThreadFactory threads, int batchSize, int lanes, WeirMetrics metrics) {
        this.settings = settings;
        this.metrics = metrics;
        this.capacity = capacity;
        this.bucket = bucket;
        this.transactor = transactor;
        this.runner = runner;
        this.instance = instance;
        this.batchSize = batchSize;
        this.cursors = new ClaimCursors(lanes, settings.pollInterval().toNanos());
        this.thread = threads.newThread(this::loop);
        this.thread.setName("weir-dispatcher-" + settings.name());
        capacity.onRelease(() -> {
            if (starved) {
                wakeup.ring();
            }
        });
    }

    String queue() {
        return settings.name();
    }

    QueueCapacity capacity() {
        return capacity;
    }

    /** The queue's rate limit on this instance; null when it has none. */
    TokenBucket bucket() {
        return bucket;
    }

    void start() {
        thread.start();
    }

    /**
     * Polls soon because shared capacity came back that this queue asked for; says nothing about work, so an idle
     * queue looks at the index before it asks again.
     */
    void ring() {
        wakeup.ring();
    }

    /** Polls soon: new jobs may be available (and may come before the claim cursor). */
    void wake() {
        cursors.reset();
        if (pausedHint) {
            return;
        }
        hinted = true;
        wakeup.ring();
    }

    boolean pausedHint() {
        return pausedHint;
    }

    /** An operator paused or resumed the queue; a resume makes it poll at once. */
    void paused(boolean paused) {
        pausedHint = paused;
        if (!paused) {
            wake();
        }
    }

    boolean alive() {
        return thread.isAlive();
    }

    /** Stops claiming; the jobs already started keep running. */
    void stop() throws InterruptedException {
        stopping = true;
        wakeup.ring();
        thread.join(5000);
    }

    private void loop() {
        long errorWaitMs = 100;
        while (!stopping) {
            Duration wait;
            try {
                wait = pollOnce();
                errorWaitMs = 100;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Weir: queue " + queue() + " could not claim jobs; trying again in "
                        + errorWaitMs + " ms", e);
                wait = Duration.ZERO;
                sleepQuietly(errorWaitMs);
                errorWaitMs = Math.min(errorWaitMs * 2, MAX_ERROR_WAIT.toMillis());
            }
            if (!wait.isZero() && !stopping) {
                try {
                    wakeup.await(wait);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /**
     * One poll; returns how long to wait before the next one unless rung: zero to poll again at once (the batch was
     * full), the time one token takes when the rate limit cut the batch, else the poll interval.
     */
    Duration pollOnce() {
        boolean hint = hinted;
        hinted = false;
        if (capacity.shared() && !hint && !mayHaveWork && !anyAvailable()) {
            // An idle queue must not ask the shared pool: its request would make it a contender and shrink the busy
            // queues' shares until it learned, by an empty claim, that it has nothing to do. A cheap look at the
            // index first; a notification or a full claim skips it.
            capacity.clearDemand();
            return settings.pollInterval();
        }
        // 1. Permits first: a job becomes running only against a permit already held.
        starved = true;
        List<Permit> held = new ArrayList<>(capacity.tryAcquire(batchSize));
        if (held.isEmpty()) {
            return settings.pollInterval();
        }
        starved = false;
        gather(held);
        // 2. The rate limit: keep at most as many permits as there are tokens.
        int tokens = bucket == null ? held.size() : bucket.tryTake(held.size());
        for (int i = tokens; i < held.size(); i++) {
            held.get(i).release();
        }
        boolean rateLimited = tokens < held.size();
        if (rateLimited) {
            metrics.rateLimited(queue());
        }
        if (tokens == 0) {
            return tokenInterval();
        }
        List<Permit> permits = held.subList(0, tokens);
        // 3. Claim at most one job per permit.
        List<ClaimedJob> jobs;
        try {
            jobs = claimAlone(permits.size());
        } catch (RuntimeException e) {
            permits.forEach(Permit::release);
            if (bucket != null) {
                bucket.refund(tokens);
            }
            throw e;
        }
        mayHaveWork = jobs.size() == permits.size();
        if (!jobs.isEmpty()) {
            pausedHint = false;
        }
        // 4. Give back the permits and tokens the database could not use.
        for (int i = jobs.size(); i < permits.size(); i++) {
            permits.get(i).release();
        }
        if (bucket != null) {
            bucket.refund(tokens - jobs.size());
        }
        // 5. An empty queue stops contending for shared capacity.
        if (jobs.isEmpty()) {
            capacity.clearDemand();
            return settings.pollInterval();
        }
        // 6. One permit per job.
        start(jobs, permits);
        if (jobs.size() < permits.size()) {
            return settings.pollInterval();
        }
        return rateLimited ? tokenInterval() : Duration.ZERO;
    }

    private boolean anyAvailable() {
        return transactor.alone(sql -> JobStore.anyAvailable(sql, queue()));   // one read: no transaction needed
    }

    /** A claim begun: the claim cursor it reads, where on it it starts, and what it asks the database for. */
    private record Begun(ClaimCursor cursor, ClaimCursor.Start start, JobStore.ClaimRequest request, long now) {
    }

    /**
     * Begins a claim of at most {@code limit} jobs from the claim cursor. The cursor moves on when the claim
     * {@linkplain #end ends}: a claim whose statement then fails must {@linkplain ClaimCursor#reset reset} it.
     */
    private Begun begin(int limit) {
        return begin(cursors.poll(), limit, Lanes.Part.WHOLE);
    }

    private Begun begin(ClaimCursor cursor, int limit, Lanes.Part part) {
        long now = System.nanoTime();
        ClaimCursor.Start start = cursor.start(now);
        return new Begun(cursor, start, new JobStore.ClaimRequest(queue(), limit, instance,
                settings.deadline().toMillis(), start.after(), part.part(), part.parts()), now);
    }

    /**
     * Ends a claim that found {@code found} after the cursor: when that is fewer jobs than it asked for, claims the
     * rest from the head of the queue with {@code fromHead}, so that a short claim still means the queue has nothing
     * more to give. Moves the cursor on and returns every job claimed.
     */
    private List<ClaimedJob> end(Begun begun, List<ClaimedJob> found,
            Function<JobStore.ClaimRequest, List<ClaimedJob>> fromHead) {
        JobStore.ClaimRequest request = begun.request();
        List<ClaimedJob> jobs = found;
        boolean fromStart = begun.start().fromStart();
        if (jobs.size() < request.limit() && !fromStart) {
            jobs = new ArrayList<>(jobs);
            jobs.addAll(fromHead.apply(new JobStore.ClaimRequest(queue(), request.limit() - jobs.size(), instance,
                    request.deadlineMs(), ClaimKey.START)));
            fromStart = true;
        }
        List<ClaimKey> keys = new ArrayList<>(jobs.size());
        for (ClaimedJob job : jobs) {
            keys.add(job.key());
        }
        begun.cursor().claimed(begun.start(), fromStart, keys, jobs.size() < request.limit(), begun.now());
        return jobs;
    }

    /**
     * A whole claim in statements of their own, each committing by itself: from the cursor, and the rest from the
     * head. If the first statement fails, nothing was claimed: the cursor goes back to the head and the error is
     * thrown.
     */
    private List<ClaimedJob> claimAlone(int limit) {
        Begun begun = begin(limit);
        List<ClaimedJob> found;
        try {
            found = transactor.alone(sql -> JobStore.claim(sql, begun.request()));
        } catch (RuntimeException e) {
            cursors.reset();
            throw e;
        }
        return end(begun, found, this::restAlone);
    }

    /** A whole claim inside the caller's transaction: from the cursor, and the rest from the head. */
    private List<ClaimedJob> claim(Sql sql, int limit) {
        Begun begun = begin(limit);
        return end(begun, JobStore.claim(sql, begun.request()), rest -> JobStore.claim(sql, rest));
    }

    /**
     * The rest of a claim from the head of the queue, in a statement of its own after the claim from the cursor has
     * committed. If it fails the claim keeps what it has (those jobs are running now and must be started): the
     * queue is looked at again from its head at the next claim.
     */
    private List<ClaimedJob> restAlone(JobStore.ClaimRequest rest) {
        try {
            return transactor.alone(sql -> JobStore.claim(sql, rest));
        } catch (RuntimeException e) {
            cursors.reset();
            LOG.log(Level.WARNING, "Weir: queue " + queue() + " could not claim from the head of the queue", e);
            return List.of();
        }
    }

    /** Starts each job on its permit. */
    private void start(List<ClaimedJob> jobs, List<Permit> permits) {
        runner.start(attempts(jobs, permits));
    }

    /** An attempt for each job on its permit, not started yet. */
    private List<Attempt> attempts(List<ClaimedJob> jobs, List<Permit> permits) {
        long deadline = System.nanoTime() + settings.deadline().toNanos();
        List<Attempt> attempts = new ArrayList<>(jobs.size());
        for (int i = 0; i < jobs.size(); i++) {
            attempts.add(new Attempt(jobs.get(i), permits.get(i), deadline));
        }
        return attempts;
    }

    /**
     * Plans a renewal: of the permits of this queue's finished attempts (whose outcomes are about to be written),
     * the ones that may carry the queue's next jobs — those the capacity lets it keep and the rate limit has tokens
     * for. Null when there are none (or the dispatcher is stopping). Runs on the completer's thread before its
     * transaction; the plan must then be either {@linkplain Renewal#claim claimed} and {@linkplain Renewal#committed
     * committed}, or {@linkplain Renewal#abandon abandoned}.
     */
    Renewal renew(List<Permit> finished) {
        if (stopping || finished.isEmpty()) {
            return null;
        }
        List<Permit> keep = capacity.renewable(finished);
        int tokens = bucket == null ? keep.size() : bucket.tryTake(keep.size());
        if (tokens < keep.size()) {
            metrics.rateLimited(queue());
        }
        if (tokens == 0) {
            return null;
        }
        return new Renewal(keep.subList(0, tokens));
    }

    /**
     * A claim for this queue in the completer's turn (its statement, or its transaction when follow-up jobs come
     * along), on permits of attempts that turn ends.
     */
    final class Renewal {

        private final List<Permit> permits;
        private List<ClaimedJob> jobs = List.of();
        private Begun begun;

        private Renewal(List<Permit> permits) {
            this.permits = permits;
        }

        /** The queue this renewal claims in. */
        String queue() {
            return QueueDispatcher.this.queue();
        }

        /** Inside the completer's transaction: claims at most one job per permit. */
        void claim(Sql sql) {
            jobs = QueueDispatcher.this.claim(sql, permits.size());
        }

        /**
         * Begins the claim that completer lane {@code lane} makes in its own statement (ADR 0026): at most one job per
         * permit, from {@code part} of the queue (ADR 0032), on that lane's claim cursor. The completer then passes
         * what that statement claimed to {@link #claimedAlone}, or abandons the renewal.
         */
        JobStore.ClaimRequest begin(int lane, Lanes.Part part) {
            begun = QueueDispatcher.this.begin(cursors.lane(lane, part), permits.size(), part);
            return begun.request();
        }

        /**
         * The completer's statement, begun with {@link #begin}, committed and claimed {@code found}; the rest, if
         * any, comes from the head of the queue in a statement of its own.
         */
        void claimedAlone(List<ClaimedJob> found) {
            jobs = end(begun, found, QueueDispatcher.this::restAlone);
        }

        /**
         * After the commit: hands the first permits over to the claimed jobs and refunds the tokens of the rest. The
         * permits handed over are spent; the caller releases the others, and starts the attempts returned, with those
         * of the turn's other queues (one {@link JobRunner#start} for the whole turn).
         */
        List<Attempt> committed() {
            if (bucket != null) {
                bucket.refund(permits.size() - jobs.size());
            }
            List<Permit> used = permits.subList(0, jobs.size());
            List<Permit> next = new ArrayList<>(used.size());
            for (Permit p : used) {
                next.add(p.handOver());
            }
            return attempts(jobs, next);
        }

        /** The transaction failed: nothing was claimed; the tokens go back, the permits stay with their attempts. */
        void abandon() {
            jobs = List.of();
            cursors.reset();
            if (bucket != null) {
                bucket.refund(permits.size());
            }
        }
    }

    /**
     * Step 1, continued: when only a few permits are free while this queue's other attempts are still running, their
     * permits are about to come back (the completer returns a batch at once): wait for them a moment, at most
     * {@link #GATHER}, so that one full claim replaces several small ones. An idle queue never waits here.
     */
    private void gather(List<Permit> held) {
        if (held.size() * 2 >= batchSize) {
            return;
        }
        long until = System.nanoTime() + GATHER.toNanos();
        while (held.size() < batchSize && capacity.inFlight() > held.size() && System.nanoTime() - until < 0) {
            LockSupport.parkNanos(GATHER_STEP.toNanos());
            held.addAll(capacity.tryAcquire(batchSize - held.size()));
        }
    }

    /** How long one token of the rate limit takes to come. */
    private Duration tokenInterval() {
        return Duration.ofNanos((long) Math.ceil(1e9 / bucket.rate()));
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
