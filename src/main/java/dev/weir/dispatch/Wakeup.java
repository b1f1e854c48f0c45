package dev.weir.dispatch;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A doorbell for one waiting thread: {@link #ring()} never blocks and several rings before the thread looks
 * count as one; {@link #await(Duration)} returns at the first ring or when the time is up.
 */
final class Wakeup {

    private final Semaphore bell = new Semaphore(0);

    void ring() {
        if (bell.availablePermits() == 0) {
            bell.release();
        }
    }

    /** Waits for a ring; returns whether there was one. */
    boolean await(Duration timeout) throws InterruptedException {
        boolean rung = bell.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS);
        bell.drainPermits();
        return rung;
    }
}
