package dev.weir.dispatch;

import java.time.Duration;

/**
 * The wait before a failed job runs again: exponential in the attempt number, capped, with jitter so that jobs
 * that failed together do not come back together.
 *
 * <p>{@code delay(n) = min(1 s × 2^(n−1), 6 h) × (0.8 … 1.2)}. With the default 25 attempts a job keeps trying
 * for about two and a half days: the first retries come within seconds, the later ones six hours apart.
 */
public final class Backoff {

    static final Duration BASE = Duration.ofSeconds(1);
    static final Duration CAP = Duration.ofHours(6);
    static final double JITTER = 0.2;

    private Backoff() {
    }

    /**
     * The delay after failed attempt {@code attempt} (1 for the first).
     *
     * @param random a number in [0, 1) choosing where in the jitter band the delay falls
     */
    public static Duration delay(int attempt, double random) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt starts at 1: " + attempt);
        }
        if (random < 0 || random >= 1) {
            throw new IllegalArgumentException("random must be in [0, 1): " + random);
        }
        int doublings = attempt - 1;
        long capMs = CAP.toMillis();
        // 1 s × 2^30 is far past the cap; stopping there also keeps the shift from overflowing.
        long raw = doublings >= 30 ? capMs : Math.min(capMs, BASE.toMillis() << doublings);
        double factor = 1 - JITTER + 2 * JITTER * random;
        return Duration.ofMillis(Math.round(raw * factor));
    }
}
