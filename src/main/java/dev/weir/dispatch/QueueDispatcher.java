package dev.weir.dispatch;

import dev.weir.concurrency.Permit;
import dev.weir.concurrency.QueueCapacity;
import dev.weir.concurrency.TokenBucket;
import dev.weir.config.QueueSettings;
import dev.weir.store.ClaimedJob;
import dev.weir.store.JobStore;
import dev.weir.store.Transactor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.ThreadFactory;
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
    private volatile boolean stopping;
    /** True while the last poll found no free permit: a permit coming back must then ring. */
    private volatile boolean starved;

    QueueDispatcher(QueueSettings settings, QueueCapacity capacity, TokenBucket bucket, Transactor transactor,
            JobRunner runner, String instance, ThreadFactory threads, int batchSize) {
        this.settings = settings;
        this.capacity = capacity;
        this.bucket = bucket;
        this.transactor = transactor;
        this.runner = runner;
        this.instance = instance;
        this.batchSize = batchSize;
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

    void start() {
        thread.start();
    }

    /** Polls soon: new jobs may be available. */
    void wake() {
        wakeup.ring();
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
        if (tokens == 0) {
            return tokenInterval();
        }
        List<Permit> permits = held.subList(0, tokens);
        // 3. Claim at most one job per permit.
        List<ClaimedJob> jobs;
        try {
            long deadlineMs = settings.deadline().toMillis();
            jobs = transactor.inNewTransaction(sql -> JobStore.claim(sql, queue(), permits.size(), instance, deadlineMs));
        } catch (RuntimeException e) {
            permits.forEach(Permit::release);
            if (bucket != null) {
                bucket.refund(tokens);
            }
            throw e;
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
        long now = System.nanoTime();
        long deadline = settings.deadline().toNanos();
        for (int i = 0; i < jobs.size(); i++) {
            runner.start(new Attempt(jobs.get(i), permits.get(i), now + deadline));
        }
        if (jobs.size() < permits.size()) {
            return settings.pollInterval();
        }
        return rateLimited ? tokenInterval() : Duration.ZERO;
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
