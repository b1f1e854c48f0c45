package dev.weir.dispatch;

import dev.weir.store.ClaimKey;
import java.util.List;

/**
 * Where a queue's claims on this instance have got to in claim order, so that the next claim can start its index scan
 * there instead of at the head of the queue, where every job claimed since the last vacuum has left a dead index entry
 * (ADR 0024).
 *
 * <p>A job that comes before the cursor and is available would be missed by a claim from the cursor. Every way a job
 * becomes available announces it ({@code NOTIFY}), and the dispatcher {@linkplain #reset() resets} the cursor when an
 * announcement arrives; the few ways that do not announce (a priority raised by aging, a job another transaction held
 * locked when a claim passed it) are caught by the age limit: a claim at least every {@code maxAgeNanos} reads the
 * queue from its start. A claim from the cursor that finds fewer jobs than it asked for reads the queue from its start
 * for the rest, so a short claim still means the queue has nothing more to give.
 *
 * <p>Thread-safe: the dispatcher's polls and the completer's renewals claim for the same queue.
 */
final class ClaimCursor {

    /** Where a claim starts, and which cursor it read. */
    record Start(ClaimKey after, long generation) {

        boolean fromStart() {
            return after.equals(ClaimKey.START);
        }
    }

    private final long maxAgeNanos;
    /** Null: the next claim starts at the head of the queue. */
    private ClaimKey key;
    /** When the claim from the head of the queue that began this run of cursor claims was made. */
    private long since;
    /** Counts resets: a claim that began before a reset must not move the cursor. */
    private long generation;

    ClaimCursor(long maxAgeNanos) {
        this.maxAgeNanos = maxAgeNanos;
    }

    /** Where a claim made at {@code now} starts. */
    synchronized Start start(long now) {
        if (key != null && now - since >= maxAgeNanos) {
            key = null;
        }
        return new Start(key == null ? ClaimKey.START : key, generation);
    }

    /**
     * Records a claim: it began at {@code start}, read the queue from its head too when {@code fromStart}, claimed
     * {@code claimed}, and found the queue {@code exhausted} (fewer jobs than it asked for, from the head).
     */
    synchronized void claimed(Start start, boolean fromStart, List<ClaimKey> claimed, boolean exhausted, long now) {
        if (start.generation() != generation) {
            return;
        }
        if (exhausted) {
            key = null;
            return;
        }
        ClaimKey last = start.after();
        for (ClaimKey k : claimed) {
            last = ClaimKey.max(last, k);
        }
        if (fromStart) {
            since = now;
        }
        key = key == null ? last : ClaimKey.max(key, last);
    }

    /** The next claim starts at the head of the queue: jobs may have become available before the cursor. */
    synchronized void reset() {
        key = null;
        generation++;
    }
}
