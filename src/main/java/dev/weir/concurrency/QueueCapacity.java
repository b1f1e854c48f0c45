package dev.weir.concurrency;

import java.util.List;

/**
 * How many jobs one queue may run at once on this instance. Implementations never block: they grant what they
 * can now, possibly nothing.
 */
public interface QueueCapacity {

    /** Takes up to {@code wanted} permits at once (step 1 of a poll); the list may be shorter, or empty. */
    List<Permit> tryAcquire(int wanted);

    /**
     * Of the permits of finished attempts in {@code held}, the ones the queue may keep for its next jobs instead of
     * giving them back, in the order they should be used: all of them, except overflow permits beyond the queue's
     * fair share now (weighted mode), which must go back where other queues can have them. Changes nothing.
     */
    List<Permit> renewable(List<Permit> held);

    /** The queue found no job in its last poll: it stops counting as a contender (step 5 of a poll). */
    void clearDemand();

    /**
     * Whether asking for permits affects other queues (weighted mode: a request makes the queue a contender for the
     * shared overflow), so that a queue with no work should not ask.
     */
    default boolean shared() {
        return false;
    }

    /** Permits taken and not yet given back. */
    int inFlight();

    /** What the queue's capacity looks like now, for health and the REST API. */
    CapacityReport report();

    /** Called after every permit that comes back, on the releasing thread; must be quick and must not block. */
    void onRelease(Runnable listener);
}
