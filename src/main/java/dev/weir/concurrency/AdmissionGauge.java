package dev.weir.concurrency;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * What one instance knows about one bounded queue's admission: its limit, how many submissions it refused here, and
 * the queue's recent completion rate, from which a refusal's retry-after is suggested ({@link RetryAfter}).
 *
 * <p>The rate is a count of the queue's jobs that finished within {@link #WINDOW}, asked of the database by the
 * caller's {@code recentFinishes} at most once per {@link #REFRESH} however many refusals come: the first refusal
 * after the value grew stale refreshes it, the others meanwhile use the old value rather than wait. Thread-safe
 * without locks; every field is either final, atomic or volatile.
 */
public final class AdmissionGauge {

    /** How far back finished jobs count towards the rate. */
    public static final Duration WINDOW = Duration.ofSeconds(5);
    /** How often the rate is asked of the database at most. */
    public static final Duration REFRESH = Duration.ofSeconds(1);
    /**
     * The most finished jobs worth counting in {@link #WINDOW}: at 1000 a second the largest refused batch (1000
     * jobs) already gets the minimum of one second, so counting further would change no answer.
     */
    public static final int COUNT_CAP = 5000;

    private final String queue;
    private final int limit;
    private final LongSupplier nanoClock;
    private final AtomicLong refusals = new AtomicLong();
    /** When the rate was last refreshed (nanoClock time); claimed by compare-and-set by the refreshing thread. */
    private final AtomicLong refreshedAt;
    private volatile double finishesPerSecond;

    public AdmissionGauge(String queue, int limit) {
        this(queue, limit, System::nanoTime);
    }

    public AdmissionGauge(String queue, int limit, LongSupplier nanoClock) {
        this.queue = queue;
        this.limit = limit;
        this.nanoClock = nanoClock;
        this.refreshedAt = new AtomicLong(nanoClock.getAsLong() - REFRESH.toNanos() - 1);
    }

    public String queue() {
        return queue;
    }

    public int limit() {
        return limit;
    }

    /** Submissions refused on this instance since it started. */
    public long refusals() {
        return refusals.get();
    }

    /**
     * Counts a refusal and suggests its retry-after.
     *
     * @param outstanding    the queue's outstanding jobs as the refusal saw them
     * @param requested      how many jobs did not fit
     * @param recentFinishes counts the queue's jobs finished within {@link #WINDOW}, at most {@link #COUNT_CAP};
     *                       called at most once per {@link #REFRESH}
     */
    public Duration refuse(long outstanding, int requested, LongSupplier recentFinishes) {
        refusals.incrementAndGet();
        return RetryAfter.estimate(RetryAfter.deficit(outstanding, requested, limit), rate(recentFinishes));
    }

    /** The recent completion rate in jobs per second, refreshed through {@code recentFinishes} when stale. */
    double rate(LongSupplier recentFinishes) {
        long now = nanoClock.getAsLong();
        long last = refreshedAt.get();
        if (now - last > REFRESH.toNanos() && refreshedAt.compareAndSet(last, now)) {
            long finished = Math.min(COUNT_CAP, Math.max(0, recentFinishes.getAsLong()));
            finishesPerSecond = finished / (double) WINDOW.toSeconds();
        }
        return finishesPerSecond;
    }
}
