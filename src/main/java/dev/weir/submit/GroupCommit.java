package dev.weir.submit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * Group commit for requests that need a transaction of their own: concurrent callers' requests share one transaction
 * instead of paying a commit each (ADR 0030). No thread of its own: a caller whose request is waiting becomes a
 * <em>leader</em> when fewer than {@code maxGroups} groups are running, takes the waiting requests (oldest first, up
 * to {@code maxWeight} in all, at least one), runs them with the {@link Runner} and hands each caller its answer. A
 * caller alone runs a group of one at once: nothing waits for company.
 *
 * <p>A group starts beside a running one only once at least {@code parallelWeight} is waiting. Lighter work waits for
 * the running group to end and joins the next one, where it shares a commit with what came in meanwhile, instead of
 * leading a small group of its own whose transaction costs about as much as a full one.
 *
 * <p>While a group runs, the next one is held back a little ({@link #staggerNanos}): until the latest group has run
 * for a {@code maxGroups}-th of a typical group's time, and the latest to end ended half that long ago, at most
 * {@link #MAX_STAGGER_NANOS}. Callers that submit again as soon as they are answered come back in a burst when their
 * group ends; without the pause the first of them found a free place and led a group of one or two while the rest
 * queued behind it. With two groups in flight and 16 such callers, groups grew from about 5 requests to about 7.5.
 * With none running, a group that held a request which {@code gathers} (its group has a fixed cost worth sharing)
 * has the next one wait for the callers it set free, but only until as many requests came in since as it held, so a
 * caller submitting again and again alone never waits: otherwise 16 such callers split into two halves that took
 * turns, each half's group starting as the other's ended, and the returning half always came too late (ADR 0030,
 * amendment "the callers of the last group"). In that wait only the oldest waiting caller watches the time; the others
 * sleep until the group that ends it takes them (ADR 0030, amendment "one timed wait").
 *
 * <p>The callers of a group that ended leave without the lock, and are woken as a binary tree: the leader wakes the
 * first, and each caller, once it sees its request settled, wakes the two after it in the group's order
 * ({@link #wakeNext}); those of a caller busy leading another group are woken in its place. So the wake-ups run on
 * several threads at once. Woken one after another through the lock, as they were, 16 callers came back one about every
 * 23 µs, and a bounded queue's next group waited for the last of them (ADR 0030, amendment "the group's callers woken as
 * a tree"). Threads wait with {@link LockSupport#park}, so a caller may later see one spurious return from a park of
 * its own, which the JDK's blocking classes and every loop here allow for.
 *
 * <p>Failures keep each request's fate its own:
 * <ul>
 * <li>the runner throws {@link Uncommitted} when the group failed before its commit (the transaction rolled back, so
 * nothing of it is stored): each request of the group is then run again alone, on its caller's thread, and only the
 * request that fails alone fails;</li>
 * <li>any other exception (the commit itself failed, and whether it took effect is unknown) reaches every caller of
 * the group, as it would reach a caller that ran alone. Running those again could store a request twice.</li>
 * </ul>
 * Callers wait without giving up on interruption (a request being run cannot be withdrawn); their interrupt status is
 * kept.
 *
 * @param <R> a request
 * @param <A> its answer
 */
public final class GroupCommit<R, A> {

    /**
     * Runs requests in one transaction, committed when it returns; answers one answer per request, in order. In a
     * group of more than one, a request may be left unanswered ({@code null}): nothing of it was stored, and its caller
     * runs it again alone, as after a rollback. A group of one answers its request.
     */
    @FunctionalInterface
    public interface Runner<R, A> {
        List<A> run(List<R> group);
    }

    /** Thrown by a {@link Runner} whose transaction rolled back before its commit: nothing of the group is stored. */
    public static final class Uncommitted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Uncommitted(RuntimeException cause) {
            super(cause.getMessage(), Objects.requireNonNull(cause));
        }

        @Override
        public synchronized RuntimeException getCause() {
            return (RuntimeException) super.getCause();
        }
    }

    /** How many groups ran and how many requests they held, since this was made. */
    public record Counts(long groups, long requests) {
    }

    private static final class Slot<R, A> {
        final R request;
        final int weight;
        /** Whether the next group, with none running, waits for this request's caller to come back. */
        final boolean gathers;
        /** The caller: unparked when its request is settled, or when it may lead the next group. */
        final Thread caller;
        /** The group that took it and its place there: written under the lock, read by others once {@link #done}. */
        List<Slot<R, A>> group;
        int index;
        /** The group has settled this request: its fate below is written. Set after them, read before them. */
        volatile boolean done;
        /** Its caller is leading a group (not necessarily its own): it wakes no one until that group ends. */
        volatile boolean leading;
        boolean alone;
        A answer;
        RuntimeException failure;
        Error error;

        Slot(R request, int weight, boolean gathers, Thread caller) {
            this.request = request;
            this.weight = weight;
            this.gathers = gathers;
            this.caller = caller;
        }
    }

    /** The most a group's start is held back to keep the groups in flight apart ({@link #staggerNanos}). */
    static final long MAX_STAGGER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final int maxGroups;
    private final int maxWeight;
    private final int parallelWeight;
    private final ToIntFunction<R> weight;
    private final Predicate<R> gathers;
    private final Runner<R, A> runner;
    private final LongSupplier nanoClock;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Slot<R, A>> waiting = new ArrayDeque<>();
    /** The weight of the {@link #waiting} requests. Guarded by {@link #lock}. */
    private long waitingWeight;
    private final AtomicLong groups = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    /** Groups running now. Guarded by {@link #lock}, as are the three fields below. */
    private int running;
    /** When the latest group started and when the latest one ended ({@link #nanoClock}). */
    private long lastStart;
    private long lastEnd;
    /** How long a group takes, a moving average of the recent ones (0 until one has run). */
    private long typicalNanos;
    /**
     * Requests the latest group to end held, whether one of them {@linkplain #gathers gathers}, and requests that came
     * in since it ended.
     */
    private int lastSize;
    private boolean lastGathers;
    private int arrivedSinceEnd;

    /**
     * @param maxGroups groups that may run at once (at least 1)
     * @param maxWeight the most weight a group takes, unless its first request alone weighs more (at least 1)
     * @param weight a request's weight (a submission's jobs, say)
     */
    public GroupCommit(int maxGroups, int maxWeight, ToIntFunction<R> weight, Runner<R, A> runner) {
        this(maxGroups, maxWeight, 1, weight, r -> false, runner, System::nanoTime);
    }

    /**
     * The same, with a group starting beside a running one only once at least {@code parallelWeight} is waiting:
     * lighter work waits for the running group to end and joins the next one.
     */
    public GroupCommit(int maxGroups, int maxWeight, int parallelWeight, ToIntFunction<R> weight,
            Runner<R, A> runner) {
        this(maxGroups, maxWeight, parallelWeight, weight, r -> false, runner, System::nanoTime);
    }

    /**
     * The same, with the next group, when none is running, waiting a little for the callers of the last one to come
     * back when that group held a request for which {@code gathers} holds: one whose group has a fixed cost worth
     * sharing among more requests (a bounded queue's admission statement, say).
     */
    public GroupCommit(int maxGroups, int maxWeight, int parallelWeight, ToIntFunction<R> weight,
            Predicate<R> gathers, Runner<R, A> runner) {
        this(maxGroups, maxWeight, parallelWeight, weight, gathers, runner, System::nanoTime);
    }

    /** The same, timed by {@code nanoClock} (for tests). */
    GroupCommit(int maxGroups, int maxWeight, int parallelWeight, ToIntFunction<R> weight, Predicate<R> gathers,
            Runner<R, A> runner, LongSupplier nanoClock) {
        if (maxGroups < 1 || maxWeight < 1 || parallelWeight < 1) {
            throw new IllegalArgumentException("maxGroups, maxWeight and parallelWeight must be at least 1, were "
                    + maxGroups + ", " + maxWeight + " and " + parallelWeight);
        }
        this.maxGroups = maxGroups;
        this.maxWeight = maxWeight;
        this.parallelWeight = parallelWeight;
        this.weight = Objects.requireNonNull(weight);
        this.gathers = Objects.requireNonNull(gathers);
        this.runner = Objects.requireNonNull(runner);
        this.nanoClock = Objects.requireNonNull(nanoClock);
    }

    /** Runs {@code request} in a group (alone if no other caller is waiting) and answers its answer. */
    public A run(R request) {
        Slot<R, A> slot = new Slot<>(request, weight.applyAsInt(request), gathers.test(request),
                Thread.currentThread());
        boolean interrupted = false;
        boolean locked = true;
        lock.lock();
        try {
            waiting.addLast(slot);
            arrivedSinceEnd++;
            waitingWeight += slot.weight;
            while (!slot.done) {
                long park = -1; // until unparked
                if (running < maxGroups && !waiting.isEmpty()
                        && (running == 0 || waitingWeight >= parallelWeight)) {
                    long early = staggerNanos();
                    if (early <= 0) {
                        // A caller whose own request is in a running group may lead the next one too, as before.
                        slot.leading = true;
                        try {
                            lead();
                        } finally {
                            slot.leading = false;
                        }
                        continue;
                    }
                    // With none running, only the oldest waiting caller keeps the time. The others would all wake
                    // when it is up, though the group that ends the wait takes every one of them: together they weigh
                    // less than a full group, or the wait would have ended already.
                    if (running > 0 || waiting.peekFirst() == slot) {
                        park = early;
                    }
                }
                lock.unlock();
                locked = false;
                if (park < 0) {
                    LockSupport.park(this);
                } else {
                    LockSupport.parkNanos(this, park);
                }
                interrupted |= Thread.interrupted();
                if (slot.done) {
                    break; // settled meanwhile: no need of the lock to leave
                }
                lock.lock();
                locked = true;
            }
        } finally {
            if (locked) {
                lock.unlock();
            }
        }
        wakeNext(slot);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (slot.alone) {
            return alone(request);
        }
        if (slot.error != null) {
            throw slot.error;
        }
        if (slot.failure != null) {
            throw slot.failure;
        }
        return slot.answer;
    }

    /**
     * Wakes the callers after {@code slot} in the binary tree of its group's order (places 2i + 1 and 2i + 2), so that
     * every caller of the group is woken by the leader or by another caller, several at a time.
     */
    private static <R, A> void wakeNext(Slot<R, A> slot) {
        List<Slot<R, A>> group = slot.group;
        for (int next = 2 * slot.index + 1; next <= 2 * slot.index + 2 && next < group.size(); next++) {
            wake(group.get(next));
        }
    }

    /**
     * Wakes the caller of a settled {@code slot}, which then wakes the next ones ({@link #wakeNext}); if that caller is
     * leading another group meanwhile, it would do so only once that group ends, so they are woken now in its place
     * (waking one twice costs it a spurious return from a later park). Nothing for the current thread, which wakes its
     * next ones as it leaves. A caller cannot start leading once its request is settled: it looks, under the lock, before
     * it leads, and the slots of a group are settled under the lock.
     */
    private static <R, A> void wake(Slot<R, A> slot) {
        if (slot.caller == Thread.currentThread()) {
            return;
        }
        LockSupport.unpark(slot.caller);
        if (slot.leading) {
            wakeNext(slot);
        }
    }

    /** The groups run so far and the requests they held (their ratio is the requests per commit). */
    public Counts counts() {
        return new Counts(groups.get(), requests.get());
    }

    /** Requests waiting for a group to take them (for tests). */
    int waiting() {
        lock.lock();
        try {
            return waiting.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * How much longer a group that could start now should wait; called with the lock held. Not at all before any
     * group has ended, when nothing is known of how long groups take. With none running, not at all unless the latest
     * group to end held a request that {@code gathers}; then until as many requests came in since it ended as it
     * held, or it ended a {@code maxGroups}-th of a typical group's time ago (at most {@link #MAX_STAGGER_NANOS}),
     * or a full group is waiting: the callers it set free come back together and join the next group, while a caller
     * alone, who is the only one to come back, never waits. Otherwise the new group starts once
     * <ol>
     * <li>the latest group to start has run for a {@code maxGroups}-th of a typical group's time, so that the groups
     * in flight start at evenly spaced moments, and</li>
     * <li>the latest group to end ended half that long ago, so that the callers its end set free, who come back
     * together, find the next group still gathering instead of the first of them leading a group of one,</li>
     * </ol>
     * each wait at most {@link #MAX_STAGGER_NANOS}, so that one slow group cannot hold the next ones back for long
     * (ADR 0030, amendment of 2026-12-02).
     */
    private long staggerNanos() {
        if (typicalNanos == 0) {
            return 0;
        }
        long gap = Math.min(MAX_STAGGER_NANOS, typicalNanos / maxGroups);
        if (running == 0) {
            if (!lastGathers || arrivedSinceEnd >= lastSize || waitingWeight >= maxWeight) {
                return 0;
            }
            return lastEnd + gap - nanoClock.getAsLong();
        }
        long linger = Math.min(MAX_STAGGER_NANOS, typicalNanos / (2L * maxGroups));
        return Math.max(lastStart + gap, lastEnd + linger) - nanoClock.getAsLong();
    }

    /** Takes a group from the waiting requests and runs it; called and returns with the lock held. */
    private void lead() {
        List<Slot<R, A>> group = new ArrayList<>();
        int taken = 0;
        boolean gathering = false;
        while (!waiting.isEmpty() && (group.isEmpty() || taken + waiting.peekFirst().weight <= maxWeight)) {
            Slot<R, A> s = waiting.pollFirst();
            s.group = group;
            s.index = group.size();
            waitingWeight -= s.weight;
            taken += s.weight;
            gathering |= s.gathers;
            group.add(s);
        }
        running++;
        long started = nanoClock.getAsLong();
        lastStart = started;
        lock.unlock();
        try {
            settle(group);
        } finally {
            lock.lock();
            running--;
            lastEnd = nanoClock.getAsLong();
            lastSize = group.size();
            lastGathers = gathering;
            arrivedSinceEnd = 0;
            long took = Math.max(0, lastEnd - started);
            typicalNanos = typicalNanos == 0 ? took : typicalNanos + (took - typicalNanos) / 8;
            for (Slot<R, A> s : group) {
                s.done = true;
            }
            // Wake only whom it concerns: the first of the group's callers (who wakes the next ones, and so on: a
            // leader that was one of them wakes its own two when it leaves), and the oldest waiting caller to lead
            // the next group.
            wake(group.get(0));
            if (!waiting.isEmpty()) {
                LockSupport.unpark(waiting.peekFirst().caller);
            }
        }
    }

    /** Runs a group outside the lock and records each request's fate in its slot. */
    private void settle(List<Slot<R, A>> group) {
        List<R> batch = new ArrayList<>(group.size());
        group.forEach(s -> batch.add(s.request));
        groups.incrementAndGet();
        requests.addAndGet(group.size());
        try {
            List<A> answers = runner.run(batch);
            if (answers.size() != group.size()) {
                throw new IllegalStateException("a group of " + group.size() + " got " + answers.size() + " answers");
            }
            for (int i = 0; i < group.size(); i++) {
                A answer = answers.get(i);
                if (answer == null && group.size() == 1) {
                    throw new IllegalStateException("a group of one left its request unanswered");
                }
                group.get(i).answer = answer;
                group.get(i).alone = answer == null;
            }
        } catch (Uncommitted e) {
            for (Slot<R, A> s : group) {
                if (group.size() == 1) {
                    s.failure = e.getCause();
                } else {
                    s.alone = true;
                }
            }
        } catch (RuntimeException e) {
            group.forEach(s -> s.failure = e);
        } catch (Error e) {
            group.forEach(s -> s.error = e);
        }
    }

    /** Runs one request in a transaction of its own, after its group rolled back or left it unanswered. */
    private A alone(R request) {
        groups.incrementAndGet();
        requests.incrementAndGet();
        try {
            A answer = runner.run(List.of(request)).get(0);
            if (answer == null) {
                throw new IllegalStateException("a group of one left its request unanswered");
            }
            return answer;
        } catch (Uncommitted e) {
            throw e.getCause();
        }
    }
}
