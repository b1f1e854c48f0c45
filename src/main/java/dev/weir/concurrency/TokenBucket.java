package dev.weir.concurrency;

import java.util.function.LongSupplier;

/**
 * A queue's rate limit on one instance (DESIGN §3.4): a bucket of at most {@code burst} tokens, full at first,
 * refilled continuously at {@code rate} tokens per second. Starting a job spends one token.
 *
 * <p>Never blocks: {@link #tryTake} grants what the bucket holds now, possibly 0. Tokens taken for jobs that were
 * not claimed go back through {@link #refund}. Thread-safe (every method is {@code synchronized}).
 *
 * <p>The bucket counts in billionths of a token on a {@code long}, so that a refill is just
 * {@code elapsed nanoseconds × rate} billionths and fractional rates (0.5/s) need no special case; the fraction of a
 * billionth each refill leaves is carried to the next, so nothing is lost to rounding however often it is polled.
 */
public final class TokenBucket {

    /** Billionths of a token per token; also nanoseconds per second, which is why the refill needs no division. */
    private static final long UNIT = 1_000_000_000L;

    private final double rate;
    private final int burst;
    private final long capacityUnits;
    private final LongSupplier nanoClock;

    /** Guarded by {@code this}. Tokens in the bucket, in billionths. */
    private long units;
    /**
     * Guarded by {@code this}. The fraction of a billionth left over by the last refill: without it, a slow rate
     * polled often (0.0001/s every microsecond) would round every refill down to nothing and never refill.
     */
    private double carry;
    /** Guarded by {@code this}. Clock reading the bucket was last refilled at. */
    private long refilledAt;

    /** A bucket on {@link System#nanoTime()}. */
    public TokenBucket(double rate, int burst) {
        this(rate, burst, System::nanoTime);
    }

    /**
     * @param rate      tokens added per second, finite and above 0
     * @param burst     most tokens the bucket holds, at least 1; the bucket starts full
     * @param nanoClock a monotonic nanosecond clock, like {@link System#nanoTime()}; only differences matter
     */
    public TokenBucket(double rate, int burst, LongSupplier nanoClock) {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("rate must be a finite number above 0: " + rate);
        }
        if (burst < 1) {
            throw new IllegalArgumentException("burst must be at least 1: " + burst);
        }
        this.rate = rate;
        this.burst = burst;
        this.capacityUnits = burst * UNIT;
        this.nanoClock = nanoClock;
        this.units = capacityUnits;
        this.refilledAt = nanoClock.getAsLong();
    }

    /**
     * Takes up to {@code wanted} whole tokens without waiting.
     *
     * @return tokens taken, {@code 0 ≤ taken ≤ wanted}
     */
    public synchronized int tryTake(int wanted) {
        if (wanted < 0) {
            throw new IllegalArgumentException("wanted must not be negative: " + wanted);
        }
        refill();
        int taken = (int) Math.min(wanted, units / UNIT);
        units -= taken * UNIT;
        return taken;
    }

    /** Puts back {@code n} tokens that were taken and not used; the bucket never holds more than {@code burst}. */
    public synchronized void refund(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must not be negative: " + n);
        }
        refill();
        units = Math.min(capacityUnits, units + n * UNIT);
    }

    /** Whole tokens in the bucket now. */
    public synchronized int available() {
        refill();
        return (int) (units / UNIT);
    }

    public double rate() {
        return rate;
    }

    public int burst() {
        return burst;
    }

    /** Caller holds {@code this}. */
    private void refill() {
        long now = nanoClock.getAsLong();
        long elapsed = now - refilledAt; // difference, not comparison: nanoTime may wrap
        if (elapsed <= 0) {
            return; // a clock that stood still (or stepped back) adds nothing
        }
        refilledAt = now;
        double exact = (double) elapsed * rate + carry;
        if (exact >= capacityUnits - units) {
            units = capacityUnits; // full: what did not fit is lost, as in any bucket
            carry = 0;
        } else {
            long whole = (long) exact;
            units += whole;
            carry = exact - whole;
        }
    }
}
