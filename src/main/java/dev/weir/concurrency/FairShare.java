package dev.weir.concurrency;

import java.util.Map;

/**
 * Weighted fair share of one instance's overflow pool (DESIGN §3.1): pure arithmetic over a snapshot of every
 * queue's {@link Standing}. No state, no locking; {@link OverflowAllocator} keeps the standings and the lock.
 *
 * <p>A queue <em>contends</em> when it asked for capacity in its last poll ({@code demand > 0}) or holds overflow
 * now ({@code held > 0}). With {@code capacity} the size of the overflow pool:
 *
 * <pre>
 *   fair_share(q) = ceil(capacity × weight(q) / Σ weight(contending))
 *   grant(q, wanted) = max(0, min(wanted, free, fair_share(q) − held(q)))
 * </pre>
 *
 * <p>Shares are rounded up, so they may add up to a little more than the pool (10 permits over three equal
 * queues gives shares of 4); {@code free} is what keeps the total within the pool. A queue alone has the whole
 * pool as its share (work-conserving). A queue that holds more than its share (it was alone when it took them)
 * is granted nothing until its releases bring it below its share; nothing is ever taken back from it.
 *
 * <p><b>Renewal.</b> A queue may keep permits of finished jobs for its next ones without giving them back
 * ({@link #renewable}): as many as fit in its share. Because shares are rounded up, two incumbents could then keep
 * the rounding remainder for ever (11 permits, weights 1 and 3: shares 3 and 9, while only 2 + 9 or 3 + 8 fit).
 * So a renewal may be told to <em>round down</em>: the queue then keeps only
 * {@code floor(capacity × weight(q) / Σ weight(contending))}, and the remainder goes to a waiting queue. When to
 * round down is {@link OverflowAllocator}'s rule: at once while another queue waits below its share rounded down,
 * and otherwise only once the renewing queue has had its remainder for a while, so that the remainder goes round
 * the waiting queues in turn without changing hands at every job.
 *
 * <p>All arithmetic is on {@code long}, so {@code capacity × weight} cannot overflow.
 */
public final class FairShare {

    private FairShare() {
    }

    /**
     * What the arithmetic needs to know about one queue.
     *
     * @param weight its weight, at least 1
     * @param held   overflow permits it holds now, at least 0
     * @param demand permits it asked for in its last request (0 after a request of 0 or a cleared demand)
     */
    public record Standing(int weight, int held, int demand) {

        public Standing {
            if (weight < 1) {
                throw new IllegalArgumentException("weight must be at least 1: " + weight);
            }
            if (held < 0 || demand < 0) {
                throw new IllegalArgumentException("held and demand must not be negative: " + held + ", " + demand);
            }
        }

        /** Whether the queue counts in the denominator of everyone's share. */
        public boolean contends() {
            return demand > 0 || held > 0;
        }

        public Standing withHeld(int newHeld) {
            return new Standing(weight, newHeld, demand);
        }

        public Standing withDemand(int newDemand) {
            return new Standing(weight, held, newDemand);
        }
    }

    /** {@code ceil(capacity × weight / contendingWeight)}; {@code contendingWeight} must be at least 1. */
    public static int fairShare(int capacity, int weight, long contendingWeight) {
        if (contendingWeight < 1) {
            throw new IllegalArgumentException("contendingWeight must be at least 1: " + contendingWeight);
        }
        // Integer ceiling: (a + b − 1) / b for a ≥ 0, b ≥ 1. The result is at most capacity since weight ≤ Σ.
        return (int) ((capacity * (long) weight + contendingWeight - 1) / contendingWeight);
    }

    /**
     * The fair share of {@code queue} if it contends, whether or not it does now: its own weight always counts in
     * the denominator, since a queue asks for its share only when it is about to contend.
     *
     * @throws IllegalArgumentException if {@code queue} has no standing
     */
    public static int shareOf(int capacity, Map<String, Standing> standings, String queue) {
        return fairShare(capacity, standingOf(standings, queue).weight(), contendingWeight(standings, queue));
    }

    /**
     * How many permits a request of {@code wanted} from {@code queue} is granted now. Pure: the caller applies
     * the result (adds it to the queue's {@code held} and records {@code demand = wanted}).
     *
     * <ol>
     *   <li>A request of 0 (or less) is granted 0; the caller clears the queue's demand.</li>
     *   <li>{@code free = capacity − Σ held} over all queues.</li>
     *   <li>The requester contends (it asks for more than 0), so its weight joins the weights of the other
     *       contending queues: {@code W = weight(q) + Σ weight(other q' with demand > 0 or held > 0)}.</li>
     *   <li>{@code share = ceil(capacity × weight(q) / W)}.</li>
     *   <li>Grant {@code min(wanted, free, share − held(q))}, and 0 if that is negative (the queue holds more
     *       than its share, or the pool is over-committed, which the caller must never allow).</li>
     * </ol>
     *
     * @throws IllegalArgumentException if {@code queue} has no standing
     */
    public static int grant(int capacity, Map<String, Standing> standings, String queue, int wanted) {
        Standing own = standingOf(standings, queue);
        if (wanted <= 0) {
            return 0;
        }
        long totalHeld = 0;
        for (Standing s : standings.values()) {
            totalHeld += s.held();
        }
        long free = capacity - totalHeld;
        long headroom = (long) shareOf(capacity, standings, queue) - own.held();
        return (int) Math.max(0, Math.min(wanted, Math.min(free, headroom)));
    }

    /**
     * The fair share of {@code queue} rounded down, {@code floor(capacity × weight(q) / Σ weight(contending))}, its
     * own weight counted as in {@link #shareOf}: what it is owed whatever the rounding.
     *
     * @throws IllegalArgumentException if {@code queue} has no standing
     */
    public static int floorShareOf(int capacity, Map<String, Standing> standings, String queue) {
        return (int) (capacity * (long) standingOf(standings, queue).weight() / contendingWeight(standings, queue));
    }

    /**
     * Of {@code n} permits {@code queue} holds and would use again at once, how many it may keep:
     * {@code max(0, min(n, share − (held − n)))}, where {@code share} is its fair share rounded up, or rounded down
     * when {@code roundDown} (another contending queue waits for the remainder). Pure.
     *
     * @throws IllegalArgumentException if {@code queue} has no standing or {@code n} is not within {@code 0..held}
     */
    public static int renewable(int capacity, Map<String, Standing> standings, String queue, int n,
            boolean roundDown) {
        Standing own = standingOf(standings, queue);
        if (n < 0 || n > own.held()) {
            throw new IllegalArgumentException("cannot renew " + n + " of " + own.held() + " permits held");
        }
        int share = roundDown ? floorShareOf(capacity, standings, queue) : shareOf(capacity, standings, queue);
        long room = (long) share - (own.held() - n);
        return (int) Math.max(0, Math.min(n, room));
    }

    /** The weight of every contending queue, {@code queue}'s own included whether or not it contends now. */
    private static long contendingWeight(Map<String, Standing> standings, String queue) {
        long total = standingOf(standings, queue).weight();
        for (Map.Entry<String, Standing> e : standings.entrySet()) {
            if (!e.getKey().equals(queue) && e.getValue().contends()) {
                total += e.getValue().weight();
            }
        }
        return total;
    }

    private static Standing standingOf(Map<String, Standing> standings, String queue) {
        Standing s = standings.get(queue);
        if (s == null) {
            throw new IllegalArgumentException("unknown queue: " + queue);
        }
        return s;
    }
}
