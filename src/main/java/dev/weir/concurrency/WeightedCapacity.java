package dev.weir.concurrency;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;

/**
 * Weighted mode for one queue (DESIGN §3.1): {@code minWorkers} permits the queue owns on this instance, taken
 * first, then permits borrowed from the instance's shared {@link OverflowAllocator}. Each {@link Permit} gives
 * itself back to where it came from ({@link Permit.Source#LOCAL} to this queue, {@link Permit.Source#OVERFLOW} to
 * the pool), exactly once. Never blocks. Thread-safe.
 */
public final class WeightedCapacity implements QueueCapacity {

    private final String queue;
    private final int minWorkers;
    private final Semaphore local;
    private final SharedOverflow overflow;
    private final List<Runnable> releaseListeners = new CopyOnWriteArrayList<>();

    /**
     * @param minWorkers permits guaranteed to the queue, at least 0
     * @param overflow   the instance's pool; it must know {@code queue} (its weight is read from there)
     */
    public WeightedCapacity(String queue, int minWorkers, SharedOverflow overflow) {
        if (minWorkers < 0) {
            throw new IllegalArgumentException("minWorkers must not be negative: " + minWorkers);
        }
        overflow.weight(queue); // fails now, not at the first poll, if the pool does not know the queue
        this.queue = queue;
        this.minWorkers = minWorkers;
        this.local = new Semaphore(minWorkers);
        this.overflow = overflow;
    }

    /**
     * Takes up to {@code wanted} permits: local ones first, then overflow for the rest. The part local permits did
     * not cover becomes the queue's demand on the pool, so a queue its minimum satisfies does not contend.
     *
     * @return local permits first, then overflow ones: a caller that keeps a prefix and releases the rest gives
     *         overflow back first, where other queues can use it
     * @throws IllegalArgumentException if {@code wanted} is negative
     */
    @Override
    public List<Permit> tryAcquire(int wanted) {
        if (wanted < 0) {
            throw new IllegalArgumentException("wanted must not be negative: " + wanted);
        }
        int fromLocal = takeLocal(wanted);
        int fromOverflow = overflow.tryAcquire(queue, wanted - fromLocal);
        List<Permit> granted = new ArrayList<>(fromLocal + fromOverflow);
        for (int i = 0; i < fromLocal; i++) {
            granted.add(new Permit(queue, Permit.Source.LOCAL, this::giveBackLocal));
        }
        for (int i = 0; i < fromOverflow; i++) {
            granted.add(new Permit(queue, Permit.Source.OVERFLOW, this::giveBackOverflow));
        }
        return granted;
    }

    /**
     * Local permits first, all of them; then as many overflow permits as the pool lets the queue keep within its
     * fair share.
     */
    @Override
    public List<Permit> renewable(List<Permit> held) {
        List<Permit> local = new ArrayList<>(held.size());
        List<Permit> borrowed = new ArrayList<>();
        for (Permit p : held) {
            (p.source() == Permit.Source.OVERFLOW ? borrowed : local).add(p);
        }
        int keep = borrowed.isEmpty() ? 0 : overflow.renewable(queue, borrowed.size());
        local.addAll(borrowed.subList(0, keep));
        return local;
    }

    /** Takes as many local permits as are free, up to {@code wanted}, in one step. */
    private int takeLocal(int wanted) {
        int n = Math.min(wanted, local.availablePermits());
        // Another thread may take some between the read and the take: retry with what is left.
        while (n > 0 && !local.tryAcquire(n)) {
            n = Math.min(n, local.availablePermits());
        }
        return Math.max(n, 0);
    }

    private void giveBackLocal() {
        local.release();
        notifyReleased();
    }

    private void giveBackOverflow() {
        overflow.release(queue, 1);
        notifyReleased();
    }

    private void notifyReleased() {
        for (Runnable listener : releaseListeners) {
            listener.run();
        }
    }

    /** A request for overflow makes the queue a contender: it shrinks the other queues' shares. */
    @Override
    public boolean shared() {
        return true;
    }

    /** Forwards to the pool: the queue stops contending for overflow once it holds none. */
    @Override
    public void clearDemand() {
        overflow.clearDemand(queue);
    }

    /** Local permits in use plus overflow permits held; the two are read one after the other, not atomically. */
    @Override
    public int inFlight() {
        return (minWorkers - local.availablePermits()) + overflow.held(queue);
    }

    @Override
    public CapacityReport report() {
        int localInUse = minWorkers - local.availablePermits();
        int overflowHeld = overflow.held(queue);
        return new CapacityReport.Weighted(minWorkers, overflow.weight(queue), overflowHeld, localInUse + overflowHeld);
    }

    @Override
    public void onRelease(Runnable listener) {
        releaseListeners.add(listener);
    }
}
