package dev.weir.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RelayTest {

    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "relay-test");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    private static List<Integer> items(int from, int to) {
        return IntStream.range(from, to).boxed().toList();
    }

    /** An executor whose tasks wait until {@link #runAll} runs them, one after another, on the test's thread. */
    private static final class Manual implements java.util.concurrent.Executor {
        final Deque<Runnable> tasks = new ArrayDeque<>();
        int handed;

        @Override
        public void execute(Runnable task) {
            handed++;
            tasks.add(task);
        }

        void runAll() {
            while (!tasks.isEmpty()) {
                tasks.poll().run();
            }
        }
    }

    @Test
    void quickItemsRunInOrderOnOneTaskAtATime() {
        Manual executor = new Manual();
        List<Integer> ran = new ArrayList<>();
        Relay<Integer> relay = new Relay<>(executor, ran::add, (i, e) -> {
            throw new AssertionError("nothing is refused");
        });
        relay.start(items(0, 50));
        relay.start(items(50, 100));
        assertEquals(Relay.ON_THE_WAY, executor.tasks.size(), "tasks on their way before any started");
        executor.runAll();
        assertEquals(items(0, 100), ran, "every item once, in the order given");
        assertEquals(2, executor.handed, "the first task, and the one on its way behind it while items waited");
        assertEquals(0, relay.waiting());
        relay.start(List.of());
        assertEquals(0, executor.tasks.size(), "nothing to run, no task");
    }

    @Test
    void itemsThatBlockUntilAllHaveStartedAllStart() throws InterruptedException {
        int n = 40;
        CountDownLatch all = new CountDownLatch(n);
        AtomicInteger saw = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(n);
        Relay<Integer> relay = new Relay<>(threads, i -> {
            all.countDown();
            try {
                if (all.await(10, TimeUnit.SECONDS)) {
                    saw.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            done.countDown();
        }, (i, e) -> {
            throw new AssertionError("nothing is refused");
        });
        relay.start(items(0, n));
        assertTrue(done.await(20, TimeUnit.SECONDS), "every item ran");
        assertEquals(n, saw.get(), "each item saw every other one started while it blocked");
    }

    @Test
    void itemsStartedFromManyThreadsRunExactlyOnce() throws InterruptedException {
        int starters = 4;
        int each = 5_000;
        var ran = ConcurrentHashMap.<Integer>newKeySet();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(starters * each);
        Relay<Integer> relay = new Relay<>(threads, i -> {
            ran.add(i);
            runs.incrementAndGet();
            done.countDown();
        }, (i, e) -> {
            throw new AssertionError("nothing is refused");
        });
        List<Thread> callers = new ArrayList<>();
        for (int s = 0; s < starters; s++) {
            int base = s * each;
            Thread t = new Thread(() -> {
                for (int b = 0; b < each; b += 25) {
                    relay.start(items(base + b, base + b + 25));
                }
            });
            callers.add(t);
            t.start();
        }
        for (Thread t : callers) {
            t.join();
        }
        assertTrue(done.await(20, TimeUnit.SECONDS), "every item ran; left: " + done.getCount());
        assertEquals(starters * each, ran.size());
        assertEquals(starters * each, runs.get(), "none ran twice");
    }

    @Test
    void aRefusedTaskCostsOneWaitingItemAndTheRestStillRun() {
        Manual manual = new Manual();
        AtomicInteger tries = new AtomicInteger();
        // The first hand-over of each three is refused.
        java.util.concurrent.Executor flaky = task -> {
            if (tries.getAndIncrement() % 3 == 0) {
                throw new RejectedExecutionException("full (test)");
            }
            manual.execute(task);
        };
        List<Integer> ran = new ArrayList<>();
        List<Integer> refused = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        Relay<Integer> relay = new Relay<>(flaky, ran::add, (i, e) -> {
            refused.add(i);
            reasons.add(e.getMessage());
        });
        relay.start(items(0, 30));
        manual.runAll();
        assertEquals(List.of(0), refused, "the refused hand-over cost the first waiting item");
        assertEquals(List.of("full (test)"), reasons);
        assertEquals(items(1, 30), ran, "the rest ran, in order");
        assertEquals(0, relay.waiting());
    }

    @Test
    void anExecutorThatRefusesEverythingHandsEveryItemBack() {
        List<Integer> refused = Collections.synchronizedList(new ArrayList<>());
        Relay<Integer> relay = new Relay<>(task -> {
            throw new RejectedExecutionException("shut down (test)");
        }, i -> {
            throw new AssertionError("nothing runs");
        }, (i, e) -> refused.add(i));
        relay.start(items(0, 10));
        assertEquals(items(0, 10), refused, "no item is left waiting with no task to take it");
        assertEquals(0, relay.waiting());
    }
}
