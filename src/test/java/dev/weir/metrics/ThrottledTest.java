package dev.weir.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ThrottledTest {

    private final AtomicLong clock = new AtomicLong(1_000);
    private final AtomicInteger reads = new AtomicInteger();

    @Test
    void readsAtMostOncePerInterval() {
        Throttled<Integer> t = new Throttled<>(reads::incrementAndGet, Duration.ofSeconds(5), clock::get);
        assertEquals(1, t.get());
        clock.addAndGet(Duration.ofMillis(4999).toNanos());
        assertEquals(1, t.get());
        assertEquals(1, t.get());
        clock.addAndGet(Duration.ofMillis(1).toNanos());
        assertEquals(2, t.get());
        assertEquals(2, reads.get());
    }

    @Test
    void aFailedReadKeepsTheLastValueAndWaitsTheIntervalToo() {
        AtomicInteger fail = new AtomicInteger();
        Throttled<Integer> t = new Throttled<>(() -> {
            if (fail.get() > 0) {
                reads.incrementAndGet();
                throw new IllegalStateException("database down");
            }
            return 42;
        }, Duration.ofSeconds(5), clock::get);
        assertEquals(42, t.get());
        fail.set(1);
        clock.addAndGet(Duration.ofSeconds(5).toNanos());
        assertEquals(42, t.get());
        assertEquals(42, t.get());
        assertEquals(1, reads.get(), "one failed read per interval, not one per call");
    }

    @Test
    void nullUntilTheFirstReadSucceeds() {
        Throttled<Integer> t = new Throttled<>(() -> {
            throw new IllegalStateException("database down");
        }, Duration.ofSeconds(5), clock::get);
        assertNull(t.get());
    }
}
