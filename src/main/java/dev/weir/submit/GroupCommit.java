package dev.weir.submit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Group commit for requests that need a transaction of their own: concurrent callers' requests share one transaction
 * instead of paying a commit each (ADR 0030). No thread of its own: a caller whose request is waiting becomes a
 * <em>leader</em> when fewer than {@code maxGroups} groups are running, takes the waiting requests (oldest first, up
 * to {@code maxWeight} in all, at least one), runs them with the {@link Runner} and hands each caller its answer. A
 * caller alone runs a group of one at once: nothing waits for company.
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

    /** Runs requests in one transaction, committed when it returns; answers one answer per request, in order. */
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
        /** Signalled when the slot is done, or when its caller may lead the next group. */
        final Condition turn;
        boolean done;
        boolean alone;
        A answer;
        RuntimeException failure;
        Error error;

        Slot(R request, int weight, Condition turn) {
            this.request = request;
            this.weight = weight;
            this.turn = turn;
        }
    }

    private final int maxGroups;
    private final int maxWeight;
    private final ToIntFunction<R> weight;
    private final Runner<R, A> runner;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Slot<R, A>> waiting = new ArrayDeque<>();
    private final AtomicLong groups = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private int running;

    /**
     * @param maxGroups groups that may run at once (at least 1)
     * @param maxWeight the most weight a group takes, unless its first request alone weighs more (at least 1)
     * @param weight a request's weight (a submission's jobs, say)
     */
    public GroupCommit(int maxGroups, int maxWeight, ToIntFunction<R> weight, Runner<R, A> runner) {
        if (maxGroups < 1 || maxWeight < 1) {
            throw new IllegalArgumentException("maxGroups and maxWeight must be at least 1, were " + maxGroups + " and "
                    + maxWeight);
        }
        this.maxGroups = maxGroups;
        this.maxWeight = maxWeight;
        this.weight = Objects.requireNonNull(weight);
        this.runner = Objects.requireNonNull(runner);
    }

    /** Runs {@code request} in a group (alone if no other caller is waiting) and answers its answer. */
    public A run(R request) {
        Slot<R, A> slot = new Slot<>(request, weight.applyAsInt(request), lock.newCondition());
        boolean interrupted = false;
        lock.lock();
        try {
            waiting.addLast(slot);
            while (!slot.done) {
                if (running < maxGroups && !waiting.isEmpty()) {
                    lead();
                } else {
                    try {
                        slot.turn.await();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
        } finally {
            lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
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

    /** Takes a group from the waiting requests and runs it; called and returns with the lock held. */
    private void lead() {
        List<Slot<R, A>> group = new ArrayList<>();
        int taken = 0;
        while (!waiting.isEmpty() && (group.isEmpty() || taken + waiting.peekFirst().weight <= maxWeight)) {
            Slot<R, A> s = waiting.pollFirst();
            taken += s.weight;
            group.add(s);
        }
        running++;
        lock.unlock();
        try {
            settle(group);
        } finally {
            lock.lock();
            running--;
            for (Slot<R, A> s : group) {
                s.done = true;
                s.turn.signal();
            }
            // Wake only whom it concerns: the group's callers, and the oldest waiting caller to lead the next group.
            if (!waiting.isEmpty()) {
                waiting.peekFirst().turn.signal();
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
                group.get(i).answer = answers.get(i);
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

    /** Runs one request in a transaction of its own, after its group rolled back. */
    private A alone(R request) {
        groups.incrementAndGet();
        requests.incrementAndGet();
        try {
            return runner.run(List.of(request)).get(0);
        } catch (Uncommitted e) {
            throw e.getCause();
        }
    }
}
