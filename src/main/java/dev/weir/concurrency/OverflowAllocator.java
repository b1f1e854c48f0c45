package dev.weir.concurrency;

import dev.weir.concurrency.FairShare.Standing;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One instance's overflow pool in weighted mode (DESIGN §3.1): {@code capacity} permits lent to queues by
 * {@linkplain FairShare weighted fair share}. It counts permits per queue; the {@link Permit} objects that carry
 * them are made by {@link WeightedCapacity}.
 *
 * <p>Never blocks: {@link #tryAcquire} grants what fair share allows now, possibly 0. Each request records the
 * queue's demand ({@code wanted}), which makes it a contender until it {@linkplain #clearDemand clears} it and
 * gives back all it holds.
 *
 * <p><b>Wake-ups.</b> A queue whose last request was granted less than it wanted is <em>starved</em>. After every
 * {@link #release} or {@link #clearDemand}, the starved queues that a retry would now grant at least one permit
 * (free permits exist and the queue is below its share) are handed to every {@linkplain #onCapacityFreed
 * listener}, so their dispatchers can poll at once instead of at their next tick. The set may include the
 * releasing queue itself: the freed permit is not reserved for anyone, so the releasing queue's own refill competes
 * on equal terms and is never starved by the wake-up.
 *
 * <p><b>The remainder.</b> Shares are rounded up, so they may add up to more than the pool; the permits beyond the
 * shares rounded down go round the waiting queues ({@link #renewable}). A queue granted permits keeps its share
 * rounded up for at least {@link #ROTATION} before its renewals give the remainder back, unless another queue waits
 * below its share rounded down, which is served at once. So the remainder changes hands a few times a second, not
 * at every job: each change costs a release, a wake-up and a claim of its own.
 *
 * <p>Thread-safe. One lock ({@code lock}) guards all mutable state; listeners run after it is released, on the
 * calling thread.
 */
public final class OverflowAllocator implements SharedOverflow {

    /**
     * How long a queue keeps its share rounded up after a grant, while the queues that wait for the remainder hold
     * at least their shares rounded down.
     */
    public static final Duration ROTATION = Duration.ofMillis(50);

    private final int capacity;
    /** Nanoseconds, for {@link #ROTATION}: {@link System#nanoTime} but in tests. */
    private final LongSupplier clock;

    private final Object lock = new Object();
    /**
     * Guarded by {@code lock}. Every queue known at construction, in the order given; the key set never changes,
     * the (immutable) values are replaced.
     */
    private final Map<String, Standing> standings = new LinkedHashMap<>();
    /** Guarded by {@code lock}. Queues whose last request was granted less than it wanted. */
    private final Set<String> starved = new HashSet<>();
    /** Guarded by {@code lock}. When each queue was last granted at least one permit ({@link #clock}). */
    private final Map<String, Long> grantedAt = new HashMap<>();

    /** Not guarded: copy-on-write, read outside the lock. */
    private final List<Consumer<Set<String>>> listeners = new CopyOnWriteArrayList<>();

    /**
     * @param capacity size of the pool ({@code global-max-workers − Σ min-workers}), at least 0
     * @param weights  every queue that may borrow, with its weight (at least 1); fixed for the pool's life
     */
    public OverflowAllocator(int capacity, Map<String, Integer> weights) {
        this(capacity, weights, System::nanoTime);
    }

    /** As {@link #OverflowAllocator(int, Map)}, with the clock {@link #ROTATION} is measured on (nanoseconds). */
    public OverflowAllocator(int capacity, Map<String, Integer> weights, LongSupplier clock) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative: " + capacity);
        }
        this.capacity = capacity;
        this.clock = clock;
        weights.forEach((queue, weight) -> standings.put(queue, new Standing(weight, 0, 0)));
    }

    /**
     * Records that {@code queue} wants {@code wanted} permits and grants what its fair share allows now, without
     * blocking. A request of 0 clears the queue's demand, like {@link #clearDemand}.
     *
     * @return permits granted, {@code 0 ≤ granted ≤ wanted}; the caller owes them back through {@link #release}
     * @throws IllegalArgumentException if the queue is unknown or {@code wanted} is negative
     */
    public int tryAcquire(String queue, int wanted) {
        if (wanted < 0) {
            throw new IllegalArgumentException("wanted must not be negative: " + wanted);
        }
        synchronized (lock) {
            Standing own = standing(queue).withDemand(wanted);
            standings.put(queue, own);
            int granted = FairShare.grant(capacity, standings, queue, wanted);
            standings.put(queue, own.withHeld(own.held() + granted));
            if (granted > 0) {
                grantedAt.put(queue, clock.getAsLong());
            }
            if (granted < wanted) {
                starved.add(queue);
            } else {
                starved.remove(queue);
            }
            // No wake-up: a grant only takes capacity (and adds a contender), so no one can now get more.
            return granted;
        }
    }

    /**
     * Of {@code n} permits {@code queue} holds and wants to use again at once (for its next jobs), how many it may
     * keep ({@link FairShare#renewable}): as many as fit in its fair share now, counting the {@code held − n} it
     * keeps anyway. Only its share rounded down while another starved queue is below its own share rounded down, or
     * below its share rounded up once {@code queue} was last granted permits at least {@link #ROTATION} ago. So an
     * incumbent above its share hands the excess back as its jobs finish, one within it keeps going without a round
     * trip through the pool, and the rounding remainder goes round the waiting queues. Changes nothing.
     *
     * @throws IllegalArgumentException if the queue is unknown, {@code n} is negative or more than it holds
     */
    public int renewable(String queue, int n) {
        synchronized (lock) {
            // Once the rotation period is over, a waiting queue below its share rounded up takes the remainder;
            // within it, only one below its share rounded down (which is at most the share rounded up).
            boolean rotationOver = noGrantWithinRotation(queue);
            boolean roundDown = false;
            for (String other : starved) {
                if (!other.equals(queue) && standings.get(other).held() < (rotationOver
                        ? FairShare.shareOf(capacity, standings, other)
                        : FairShare.floorShareOf(capacity, standings, other))) {
                    roundDown = true;
                    break;
                }
            }
            return FairShare.renewable(capacity, standings, queue, n, roundDown);
        }
    }

    /**
     * Gives back {@code n} permits held by {@code queue}, then tells the listeners which queues could now be
     * granted more.
     *
     * @throws IllegalArgumentException if the queue is unknown or {@code n} is negative
     * @throws IllegalStateException    if {@code queue} holds fewer than {@code n}; nothing is changed, since
     *                                  accepting it would lend the same permit twice
     */
    public void release(String queue, int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must not be negative: " + n);
        }
        Set<String> wake;
        synchronized (lock) {
            Standing own = standing(queue);
            if (n > own.held()) {
                throw new IllegalStateException(
                        "queue " + queue + " releases " + n + " overflow permits but holds " + own.held());
            }
            if (n == 0) {
                return;
            }
            standings.put(queue, own.withHeld(own.held() - n));
            wake = wakeable();
        }
        notifyListeners(wake);
    }

    /**
     * {@code queue} found no work: it stops contending once it also holds nothing, so the other queues' shares
     * grow. Starved queues that could now get more are handed to the listeners.
     */
    public void clearDemand(String queue) {
        Set<String> wake;
        synchronized (lock) {
            Standing own = standing(queue);
            starved.remove(queue);
            if (own.demand() == 0) {
                return;
            }
            standings.put(queue, own.withDemand(0));
            wake = wakeable();
        }
        notifyListeners(wake);
    }

    /**
     * Registers a listener called, outside the lock and on the thread that released or cleared demand, with the
     * starved queues a retry would now serve (never an empty set). It must be quick and must not block.
     */
    public void onCapacityFreed(Consumer<Set<String>> listener) {
        listeners.add(listener);
    }

    /** Overflow permits {@code queue} holds now. */
    public int held(String queue) {
        synchronized (lock) {
            return standing(queue).held();
        }
    }

    /** What {@code queue} asked for in its last request; 0 if it never asked or cleared its demand. */
    public int demand(String queue) {
        synchronized (lock) {
            return standing(queue).demand();
        }
    }

    /** The fair share {@code queue} would have if it contended now, given who else contends. */
    public int fairShare(String queue) {
        synchronized (lock) {
            return FairShare.shareOf(capacity, standings, queue);
        }
    }

    /** The weight {@code queue} was given at construction. */
    public int weight(String queue) {
        synchronized (lock) {
            return standing(queue).weight();
        }
    }

    /** Permits no queue holds. */
    public int free() {
        synchronized (lock) {
            int held = 0;
            for (Standing s : standings.values()) {
                held += s.held();
            }
            return capacity - held;
        }
    }

    /** Size of the pool. */
    public int capacity() {
        return capacity;
    }

    /** Caller holds {@code lock}. */
    private Standing standing(String queue) {
        Standing s = standings.get(queue);
        if (s == null) {
            throw new IllegalArgumentException("unknown queue: " + queue);
        }
        return s;
    }

    /** Caller holds {@code lock}. Whether {@code queue} had no grant in the last {@link #ROTATION}. */
    private boolean noGrantWithinRotation(String queue) {
        Long at = grantedAt.get(queue);
        return at == null || clock.getAsLong() - at >= ROTATION.toNanos();
    }

    /** Caller holds {@code lock}. Starved queues that would be granted at least one permit if they asked again. */
    private Set<String> wakeable() {
        if (starved.isEmpty()) {
            return Set.of(); // the common case under steady load: no allocation, no share arithmetic
        }
        Set<String> wake = new LinkedHashSet<>();
        for (Map.Entry<String, Standing> e : standings.entrySet()) {
            String queue = e.getKey();
            if (starved.contains(queue) && FairShare.grant(capacity, standings, queue, e.getValue().demand()) > 0) {
                wake.add(queue);
            }
        }
        return Collections.unmodifiableSet(wake);
    }

    private void notifyListeners(Set<String> wake) {
        if (wake.isEmpty()) {
            return;
        }
        for (Consumer<Set<String>> listener : listeners) {
            listener.accept(wake);
        }
    }
}
