package dev.weir.concurrency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AdmissionGaugeTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final AtomicInteger queries = new AtomicInteger();
    private final AdmissionGauge gauge = new AdmissionGauge("reports", 50, now::get);

    private long finished(long n) {
        queries.incrementAndGet();
        return n;
    }

    @Test
    void countsRefusalsAndDerivesRetryAfterFromTheCompletionRate() {
        // 50 finished in the 5 s window: 10 a second; 20 jobs short → 2 s.
        assertEquals(Duration.ofSeconds(2), gauge.refuse(60, 10, () -> finished(50)));
        assertEquals(1, gauge.refusals());
        assertEquals(1, queries.get());
    }

    @Test
    void asksTheDatabaseAtMostOnceASecond() {
        gauge.refuse(50, 1, () -> finished(50));
        now.addAndGet(Duration.ofMillis(900).toNanos());
        // Stale but recent enough: the cached rate (10/s) answers, however few finish now.
        assertEquals(Duration.ofSeconds(1), gauge.refuse(50, 1, () -> finished(0)));
        assertEquals(1, queries.get());
        now.addAndGet(Duration.ofMillis(200).toNanos());
        assertEquals(RetryAfter.MAX, gauge.refuse(50, 1, () -> finished(0)), "refreshed: nothing finishes now");
        assertEquals(2, queries.get());
        assertEquals(3, gauge.refusals());
    }

    @Test
    void theCountIsCappedWhereItNoLongerChangesTheAnswer() {
        assertEquals(RetryAfter.MIN, gauge.refuse(50, 1000, () -> finished(1_000_000)));
        assertEquals(AdmissionGauge.COUNT_CAP / (double) AdmissionGauge.WINDOW.toSeconds(), gauge.rate(() -> 0L));
    }

    @Test
    void aQueueThatFinishesNothingIsToldToWaitLongest() {
        assertEquals(RetryAfter.MAX, gauge.refuse(50, 1, () -> finished(0)));
    }
}
