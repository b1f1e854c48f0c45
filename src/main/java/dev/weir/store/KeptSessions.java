package dev.weir.store;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A few {@link Transactor.Session sessions} kept for statements that run {@linkplain Transactor#alone alone} one
 * after another from whichever thread comes next (a group commit's leaders, ADR 0039). A statement takes the session
 * that ran a statement last, and uses its connection as it is when that statement ended at most {@code freshNanos}
 * ago: statements that follow one another closely pay no pool checkout and no validation round trip. A session idle
 * for longer is closed instead, and the statement takes a new one, whose connection the pool validates as before: a
 * connection the database ended while Weir was quiet is caught.
 *
 * <p>A statement that fails gives its session up (its connection may be broken, {@link Transactor.Session}); at most
 * {@code max} sessions are kept, any more that ran at once are closed when their statement ends. Thread-safe.
 */
public final class KeptSessions implements AutoCloseable {

    private record Kept(Transactor.Session session, long endedAt) {
    }

    private final int max;
    private final long freshNanos;
    private final Supplier<Transactor.Session> open;
    private final LongSupplier nanoClock;
    /** Most recently used first. Guarded by itself, as is {@link #closed}. */
    private final ArrayDeque<Kept> kept = new ArrayDeque<>();
    private boolean closed;

    /**
     * @param max sessions kept between statements (at least 1)
     * @param freshNanos how long after its last statement a session is used again as it is (at least 0)
     * @param open opens a new session
     */
    public KeptSessions(int max, long freshNanos, Supplier<Transactor.Session> open, LongSupplier nanoClock) {
        if (max < 1 || freshNanos < 0) {
            throw new IllegalArgumentException("max must be at least 1 and freshNanos at least 0, were " + max
                    + " and " + freshNanos);
        }
        this.max = max;
        this.freshNanos = freshNanos;
        this.open = Objects.requireNonNull(open);
        this.nanoClock = Objects.requireNonNull(nanoClock);
    }

    /** Runs {@code work} (usually one statement) on a kept session, or on a new one when none is fresh. */
    public <T> T alone(Function<Sql, T> work) {
        Transactor.Session session = take();
        T result = session.alone(work);
        give(session);
        return result;
    }

    /** Sessions kept now (for tests). */
    int kept() {
        synchronized (kept) {
            return kept.size();
        }
    }

    /** Closes the kept sessions; statements still under way close theirs when they end. */
    @Override
    public void close() {
        synchronized (kept) {
            closed = true;
            closeAll();
        }
    }

    private Transactor.Session take() {
        long now = nanoClock.getAsLong();
        synchronized (kept) {
            Kept latest = kept.pollFirst();
            if (latest != null && now - latest.endedAt() <= freshNanos) {
                return latest.session();
            }
            // The latest is stale, so are the others: none is used as it is.
            if (latest != null) {
                latest.session().close();
            }
            closeAll();
        }
        return open.get();
    }

    private void give(Transactor.Session session) {
        long now = nanoClock.getAsLong();
        synchronized (kept) {
            if (!closed && kept.size() < max) {
                kept.addFirst(new Kept(session, now));
                return;
            }
        }
        session.close();
    }

    /** Called with the lock held. */
    private void closeAll() {
        Kept k;
        while ((k = kept.pollFirst()) != null) {
            k.session().close();
        }
    }
}
