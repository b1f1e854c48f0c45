package dev.weir.concurrency;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;

/** Hard-reserved mode: the queue owns {@code maxWorkers} permits on this instance and shares none. */
public final class HardReservedCapacity implements QueueCapacity {

    private final String queue;
    private final int maxWorkers;
    private final Semaphore permits;
    private final List<Runnable> releaseListeners = new CopyOnWriteArrayList<>();

    public HardReservedCapacity(String queue, int maxWorkers) {
        if (maxWorkers < 1) {
            throw new IllegalArgumentException("maxWorkers must be at least 1: " + maxWorkers);
        }
        this.queue = queue;
        this.maxWorkers = maxWorkers;
        this.permits = new Semaphore(maxWorkers);
    }

    @Override
    public List<Permit> tryAcquire(int wanted) {
        int n = Math.min(wanted, permits.availablePermits());
        while (n > 0 && !permits.tryAcquire(n)) {
            n = Math.min(n, permits.availablePermits());
        }
        if (n <= 0) {
            return List.of();
        }
        List<Permit> granted = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            granted.add(new Permit(queue, Permit.Source.HARD_RESERVED, this::giveBack));
        }
        return granted;
    }

    /** Hard-reserved permits belong to the queue: it may keep them all. */
    @Override
    public List<Permit> renewable(List<Permit> held) {
        return held;
    }

    private void giveBack() {
        permits.release();
        for (Runnable listener : releaseListeners) {
            listener.run();
        }
    }

    @Override
    public void clearDemand() {
        // Hard-reserved permits are never lent, so demand means nothing here.
    }

    @Override
    public int inFlight() {
        return maxWorkers - permits.availablePermits();
    }

    @Override
    public CapacityReport report() {
        return new CapacityReport.HardReserved(maxWorkers, inFlight());
    }

    @Override
    public void onRelease(Runnable listener) {
        releaseListeners.add(listener);
    }
}
