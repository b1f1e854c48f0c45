package dev.weir.dispatch;

import java.util.Collection;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Runs items on an executor with as few tasks as keep every item moving (ADR 0041). Items wait in one queue, in the
 * order they came; a task takes them one after another until the queue is empty. Whenever a task takes an item and
 * more are waiting, it first makes sure that another task is on its way (handed to the executor and not yet started;
 * at most {@link #ON_THE_WAY} at a time), so that an item whose work blocks never holds up the ones behind it: those
 * are taken by the task on its way, which does the same in its turn. Items that are quick to run are mostly run by the
 * tasks already going, without waking a thread each. Pure of any container; the executor is given.
 *
 * <p>An executor that refuses a task (or fails to take it in any other way) costs one waiting item: it goes to
 * {@code refused} instead of running, and the hand-over is tried again while items wait. So an executor that refuses
 * everything hands every waiting item to {@code refused}, and none is left with no task to take it.
 *
 * @param <T> what is run
 */
final class Relay<T> {

    /** Tasks handed to the executor and not yet started, at most. */
    static final int ON_THE_WAY = 1;

    private final Executor executor;
    private final Consumer<T> run;
    private final BiConsumer<T, RuntimeException> refused;
    private final Queue<T> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger onTheWay = new AtomicInteger();

    /**
     * @param run runs one item on a task's thread; what it throws is the caller's to prevent (it ends that task; the
     *     items behind it go to the task already on its way, or to the next hand-over)
     * @param refused takes an item that will not run because the executor refused a task, and what it threw
     */
    Relay(Executor executor, Consumer<T> run, BiConsumer<T, RuntimeException> refused) {
        this.executor = executor;
        this.run = run;
        this.refused = refused;
    }

    /** Queues the items, in their order, and makes sure a task is on its way to them. */
    void start(Collection<? extends T> items) {
        if (items.isEmpty()) {
            return;
        }
        waiting.addAll(items);
        handOver();
    }

    /** Items queued and not yet taken by a task. */
    int waiting() {
        return waiting.size();
    }

    /**
     * Hands a task to the executor unless {@link #ON_THE_WAY} are already on their way: those take the items waiting
     * now, since a task counts as on its way until it has started and it takes items only after that.
     */
    private void handOver() {
        while (!waiting.isEmpty()) {
            int n = onTheWay.get();
            if (n >= ON_THE_WAY) {
                return;
            }
            if (!onTheWay.compareAndSet(n, n + 1)) {
                continue;
            }
            try {
                executor.execute(this::take);
                return;
            } catch (RuntimeException e) {
                // RejectedExecutionException, or anything else that kept the executor from taking the task.
                onTheWay.decrementAndGet();
                T item = waiting.poll();
                if (item != null) {
                    refused.accept(item, e);
                }
            }
        }
    }

    private void take() {
        onTheWay.decrementAndGet();
        T item;
        while ((item = waiting.poll()) != null) {
            if (!waiting.isEmpty()) {
                handOver();
            }
            run.accept(item);
        }
    }
}
