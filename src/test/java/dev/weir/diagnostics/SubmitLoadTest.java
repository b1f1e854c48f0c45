package dev.weir.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SubmitLoadTest {

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    void everyThreadSubmitsUntilTheTimeIsUpAndTheJobsAreCounted() throws InterruptedException {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        AtomicLong calls = new AtomicLong();
        SubmitLoad.Result r = SubmitLoad.run(executor, 4, Duration.ofMillis(200), () -> {
            threads.add(Thread.currentThread().getName());
            calls.incrementAndGet();
            Thread.sleep(1);
            return 3;
        });
        assertEquals(4, threads.size(), "each of the 4 threads submitted");
        assertEquals(calls.get(), r.calls());
        assertEquals(3 * calls.get(), r.jobs());
        assertEquals(0, r.errors());
        assertNull(r.firstError());
        assertTrue(r.seconds() >= 0.2, "it ran for the time asked: " + r.seconds());
        assertTrue(r.seconds() < 5, "and stopped: " + r.seconds());
    }

    @Test
    void aFailedCallCountsAsAnErrorAndTheThreadGoesOn() throws InterruptedException {
        AtomicLong calls = new AtomicLong();
        SubmitLoad.Result r = SubmitLoad.run(executor, 1, Duration.ofMillis(100), () -> {
            Thread.sleep(1);
            if (calls.incrementAndGet() % 2 == 1) {
                throw new IllegalStateException("queue full");
            }
            return 1;
        });
        assertEquals(calls.get(), r.calls());
        assertEquals((calls.get() + 1) / 2, r.errors());
        assertEquals(calls.get() / 2, r.jobs());
        assertTrue(r.jobs() > 0, "calls after a failure still submitted");
        assertEquals("IllegalStateException: queue full", r.firstError());
    }

    @Test
    void atLeastOneThread() {
        assertThrows(IllegalArgumentException.class, () -> SubmitLoad.run(executor, 0, Duration.ofMillis(1), () -> 1));
    }
}
