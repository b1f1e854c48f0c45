package dev.weir.concurrency;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The right to run one job. Taken before the job is claimed (DESIGN invariant 1) and given back exactly once
 * (invariant 2) by {@link #release()}, which knows where it came from: a queue's hard-reserved permits, its
 * local minimum, or the overflow pool on behalf of its queue.
 *
 * <p>Double release is impossible rather than unlikely: the first call to {@link #release()} wins a
 * compare-and-set and gives the permit back; every later call does nothing and returns false. Thread-safe.
 */
public final class Permit {

    /** Where a permit came from, and so where it goes back. */
    public enum Source {
        /** Hard-reserved mode: one of the queue's {@code max-workers}. */
        HARD_RESERVED,
        /** Weighted mode: one of the queue's guaranteed {@code min-workers}. */
        LOCAL,
        /** Weighted mode: lent by the overflow pool and owed back to it for this queue. */
        OVERFLOW
    }

    private final String queue;
    private final Source source;
    private final Runnable giveBack;
    private final AtomicBoolean released = new AtomicBoolean();

    public Permit(String queue, Source source, Runnable giveBack) {
        this.queue = queue;
        this.source = source;
        this.giveBack = giveBack;
    }

    public String queue() {
        return queue;
    }

    public Source source() {
        return source;
    }

    /**
     * Gives the permit back if no one has yet.
     *
     * @return true for the one call that gave it back, false for every other
     */
    public boolean release() {
        if (!released.compareAndSet(false, true)) {
            return false;
        }
        giveBack.run();
        return true;
    }

    /**
     * Passes this permit's duty on to a new permit, for the next job of the same queue, without giving it back: the
     * permit is then spent (a later {@link #release()} does nothing) and the returned one releases to the same place.
     * The completer uses it when it claims the next job in the transaction that records this one's outcome.
     *
     * @throws IllegalStateException if the permit was already released or handed over
     */
    public Permit handOver() {
        if (!released.compareAndSet(false, true)) {
            throw new IllegalStateException("cannot hand over " + this + ": it was already given back");
        }
        return new Permit(queue, source, giveBack);
    }

    public boolean isReleased() {
        return released.get();
    }

    @Override
    public String toString() {
        return "Permit[" + queue + ", " + source + (released.get() ? ", released]" : "]");
    }
}
