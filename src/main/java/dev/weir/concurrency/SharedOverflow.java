package dev.weir.concurrency;

import java.util.Set;
import java.util.function.Consumer;

/**
 * One instance's overflow pool in weighted mode (DESIGN §3.1): {@code global-max-workers − Σ min-workers} permits
 * lent to queues by weighted fair share, never blocking. {@link OverflowAllocator} is the algorithm; in the server
 * the {@link OverflowPool} singleton EJB stands in front of it.
 */
public interface SharedOverflow {

    /** Records that {@code queue} wants {@code wanted} permits and grants what its fair share allows now. */
    int tryAcquire(String queue, int wanted);

    /**
     * Of {@code n} permits {@code queue} holds and would use again at once, how many it may keep: those within its
     * fair share now; the rest must be given back. Changes nothing.
     */
    int renewable(String queue, int n);

    /** Gives back {@code n} permits {@code queue} holds. */
    void release(String queue, int n);

    /** The queue found no work: it stops contending. */
    void clearDemand(String queue);

    /** Called after permits come back with the queues that would now be granted some. */
    void onCapacityFreed(Consumer<Set<String>> listener);

    int held(String queue);

    int weight(String queue);

    int capacity();

    int free();
}
