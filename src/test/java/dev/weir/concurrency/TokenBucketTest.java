package dev.weir.concurrency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

    // Any starting value: only differences matter, as with System.nanoTime().
    private final AtomicLong now = new AtomicLong(123_456_789L);

    private void advanceMillis(long ms) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }

    @Test
    void burstAtOnceThenOneTokenPerInterval() {
        TokenBucket bucket = new TokenBucket(20, 5, now::get);
        assertEquals(5, bucket.tryTake(10), "starts full");
        assertEquals(0, bucket.tryTake(1));

        advanceMillis(49);
        assertEquals(0, bucket.tryTake(1), "20/s is one token per 50 ms");
        advanceMillis(1);
        assertEquals(1, bucket.tryTake(1));
        assertEquals(0, bucket.tryTake(1));

        advanceMillis(150);
        assertEquals(3, bucket.tryTake(10));

        advanceMillis(60_000);
        assertEquals(5, bucket.tryTake(10), "a long idle spell refills no more than the burst");
    }

    @Test
    void refundNeverExceedsBurst() {
        TokenBucket bucket = new TokenBucket(20, 5, now::get);
        assertEquals(3, bucket.tryTake(3));
        bucket.refund(1);
        assertEquals(3, bucket.available());
        bucket.refund(10);
        assertEquals(5, bucket.available());
        assertEquals(5, bucket.tryTake(10));
    }

    @Test
    void refundKeepsTheFractionEarnedSoFar() {
        TokenBucket bucket = new TokenBucket(20, 5, now::get);
        assertEquals(5, bucket.tryTake(5));
        advanceMillis(25); // half a token earned
        bucket.refund(2);
        assertEquals(2, bucket.tryTake(5));
        advanceMillis(25); // the other half
        assertEquals(1, bucket.tryTake(5));
    }

    @Test
    void fractionalRate() {
        TokenBucket bucket = new TokenBucket(0.5, 1, now::get);
        assertEquals(1, bucket.tryTake(3));
        advanceMillis(1_000);
        assertEquals(0, bucket.tryTake(1), "half a token after one second");
        advanceMillis(1_000);
        assertEquals(1, bucket.tryTake(1));
        advanceMillis(10_000);
        assertEquals(1, bucket.tryTake(5), "burst 1");
    }

    @Test
    void aSlowRatePolledOftenStillRefills() {
        // 1/3 token per second is a third of a billionth per nanosecond: every refill leaves a fraction over.
        TokenBucket bucket = new TokenBucket(1.0 / 3, 1, now::get);
        assertEquals(1, bucket.tryTake(1));
        for (int i = 0; i < 3_000_000; i++) {
            now.addAndGet(1_000); // poll every microsecond for three seconds
            bucket.available();
        }
        now.addAndGet(1_000);
        assertEquals(1, bucket.tryTake(1), "rounding each refill down must not lose the token");
    }

    @Test
    void aClockThatStepsBackAddsNothing() {
        TokenBucket bucket = new TokenBucket(20, 5, now::get);
        bucket.tryTake(5);
        advanceMillis(-1_000);
        assertEquals(0, bucket.tryTake(1));
        advanceMillis(1_050);
        assertEquals(1, bucket.tryTake(5), "time is counted from the last reading that moved forward");
    }

    @Test
    void refusesBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0, 1, now::get));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(Double.NaN, 1, now::get));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(Double.POSITIVE_INFINITY, 1, now::get));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(1, 0, now::get));
        TokenBucket bucket = new TokenBucket(1, 1, now::get);
        assertThrows(IllegalArgumentException.class, () -> bucket.tryTake(-1));
        assertThrows(IllegalArgumentException.class, () -> bucket.refund(-1));
        assertEquals(0, bucket.tryTake(0));
    }
}
