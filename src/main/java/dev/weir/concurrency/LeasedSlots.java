package dev.weir.concurrency;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The admission slots this instance has leased and not yet given to a job, per bounded queue (ADR 0033): a pool from
 * which submitters take slots without asking the database where free room is. The database decides what is leased
 * and guards every use; this class only remembers which leased slots are still unused, hands each to one submitter at
 * a time, and says when a queue's leases have gone unused long enough to give back.
 *
 * <p>Times are {@link System#nanoTime()} values the caller passes. Thread-safe: one lock guards every field; each
 * call is a few map and deque operations, made once per group of submissions, not per job.
 */
public final class LeasedSlots {

    /** The most slots one lease asks for. */
    public static final int MAX_LEASE = 64;
    /** A lease asks for this many times the slots of the group that makes it, so that one lease serves several. */
    static final int LEASE_FACTOR = 8;
    /** A queue whose leased slots went untaken this long gives them back. */
    public static final long IDLE_NANOS = 1_000_000_000L;
    /** After a lease that found nothing worth leasing, the queue is not leased for this long. */
    static final long EMPTY_BACKOFF_NANOS = 100_000_000L;

    private final Map<String, Pool> pools = new HashMap<>();
    private boolean closed;

    /** One queue's unused leased slots, when a slot was last taken, and until when leasing pauses. */
    private static final class Pool {
        final ArrayDeque<Integer> slots = new ArrayDeque<>();
        /** The same slots as {@link #slots}: a slot handed back twice (a failed use, its rollback) is kept once. */
        final Set<Integer> members = new HashSet<>();
        long lastTaken;
        long noLeaseUntil;
        boolean backingOff;
    }

    /**
     * How many slots to ask for when a group of {@code n} single jobs lacks {@code shortfall} of them: enough for
     * several such groups (at most {@link #MAX_LEASE}), and never fewer than it lacks.
     */
    public static int want(int n, int shortfall) {
        if (shortfall <= 0) {
            return 0;
        }
        return Math.max(shortfall, Math.min(MAX_LEASE, n * LEASE_FACTOR));
    }

    /** Takes up to {@code n} of {@code queue}'s unused leased slots for one submitter; possibly none. */
    public synchronized int[] take(String queue, int n, long now) {
        Pool p = pools.get(queue);
        if (p == null || n <= 0) {
            return new int[0];
        }
        p.lastTaken = now;
        int[] out = new int[Math.min(n, p.slots.size())];
        for (int i = 0; i < out.length; i++) {
            out[i] = pop(p);
        }
        return out;
    }

    private static int pop(Pool p) {
        int slot = p.slots.pop();
        p.members.remove(slot);
        return slot;
    }

    /** Whether {@code queue} may be leased now: not while an empty lease's back-off lasts, nor once closed. */
    public synchronized boolean mayLease(String queue, long now) {
        if (closed) {
            return false;
        }
        Pool p = pools.get(queue);
        return p == null || !p.backingOff || now - p.noLeaseUntil >= 0;
    }

    /**
     * Records what a lease of {@code queue} brought: {@code got} slots of the {@code wanted}. One that brought none
     * pauses leasing for the queue for a moment: near the bound every lease finds nothing, and asking again for each
     * group would only cost a statement.
     */
    public synchronized void leased(String queue, int wanted, int got, long now) {
        Pool p = pools.computeIfAbsent(queue, q -> new Pool());
        p.backingOff = wanted > 0 && got == 0;
        p.noLeaseUntil = now + EMPTY_BACKOFF_NANOS;
    }

    /**
     * Adds leased slots for later takers. Answers false, keeping nothing, once {@link #close()} has run: the caller
     * must then give them back to the database itself.
     */
    public synchronized boolean add(String queue, int[] slots, long now) {
        if (closed) {
            return false;
        }
        if (slots.length == 0) {
            return true;
        }
        Pool p = pools.computeIfAbsent(queue, q -> new Pool());
        if (p.slots.isEmpty()) {
            p.lastTaken = now;   // idle time counts from when the pool had slots again
        }
        for (int slot : slots) {
            if (p.members.add(slot)) {
                p.slots.push(slot);
            }
        }
        return true;
    }

    /** Removes and answers every unused leased slot of {@code queue}. */
    public synchronized int[] drain(String queue) {
        Pool p = pools.get(queue);
        if (p == null) {
            return new int[0];
        }
        int[] out = new int[p.slots.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = pop(p);
        }
        return out;
    }

    /** Removes and answers the unused slots of every queue none of whose slots was taken for {@link #IDLE_NANOS}. */
    public synchronized Map<String, int[]> drainIdle(long now) {
        Map<String, int[]> idle = new LinkedHashMap<>();
        for (Map.Entry<String, Pool> e : pools.entrySet()) {
            if (!e.getValue().slots.isEmpty() && now - e.getValue().lastTaken >= IDLE_NANOS) {
                idle.put(e.getKey(), drain(e.getKey()));
            }
        }
        return idle;
    }

    /** Removes and answers every unused slot, and keeps none from now on (the instance is stopping). */
    public synchronized Map<String, int[]> close() {
        closed = true;
        Map<String, int[]> all = new LinkedHashMap<>();
        for (String queue : pools.keySet()) {
            int[] slots = drain(queue);
            if (slots.length > 0) {
                all.put(queue, slots);
            }
        }
        return all;
    }

    /** How many unused leased slots {@code queue} has. */
    public synchronized int held(String queue) {
        Pool p = pools.get(queue);
        return p == null ? 0 : p.slots.size();
    }
}
