package dev.weir.metrics;

import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A value read from somewhere costly (the database) at most once per interval, lazily: the first {@link #get()}
 * after the interval has passed reads it again, while concurrent callers get the value at hand. A read that fails
 * keeps the last value (null if there never was one) and is not tried again before the interval has passed either,
 * so an unreachable database is not asked at every scrape.
 */
public final class Throttled<T> {

    private static final Logger LOG = Logger.getLogger(Throttled.class.getName());

    private final Supplier<T> source;
    private final long intervalNanos;
    private final LongSupplier clock;
    private volatile T value;
    /** When the value was last read (clock nanos); guarded by {@code this} for writes. */
    private volatile long readAt;
    private volatile boolean read;

    /** @param clock nanoseconds of a monotonic clock ({@code System::nanoTime}) */
    public Throttled(Supplier<T> source, java.time.Duration interval, LongSupplier clock) {
        this.source = source;
        this.intervalNanos = interval.toNanos();
        this.clock = clock;
    }

    /** The value, read again if it is older than the interval; null if it could never be read. */
    public T get() {
        if (!read || clock.getAsLong() - readAt >= intervalNanos) {
            synchronized (this) {
                long now = clock.getAsLong();
                if (!read || now - readAt >= intervalNanos) {
                    try {
                        value = source.get();
                    } catch (RuntimeException e) {
                        LOG.log(Level.FINE, "Weir: could not refresh a metric from the database; keeping the last value",
                                e);
                    }
                    readAt = now;
                    read = true;
                }
            }
        }
        return value;
    }
}
