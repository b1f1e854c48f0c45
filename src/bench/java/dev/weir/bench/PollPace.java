package dev.weir.bench;

/**
 * How long the harness waits between two polls of the database while a scenario runs: at least 250 ms, and at least
 * nineteen times what the last poll took, up to 4 s, so that polls of up to about 210 ms take at most a twentieth of
 * one connection's time (a costlier poll still waits only 4 s, so that the end of a drain is seen). Counting the unfinished jobs of a backlog of 200,000 read every entry of {@code jobs_available}
 * and took up to 180 ms: polled every 250 ms, the count took about a fifth of a core from the drain it was waiting for
 * (ADR 0015, amendment of 2026-12-08).
 */
final class PollPace {

    /** The shortest wait, for polls that cost little. */
    static final long MIN_MILLIS = 250;
    /** The longest wait, so that the end of a drain is still seen within a few seconds. */
    static final long MAX_MILLIS = 4000;

    private PollPace() {
    }

    /** The wait after a poll that took {@code pollNanos}. */
    static long afterPoll(long pollNanos) {
        long scaled = (pollNanos * 19 + 999_999) / 1_000_000;
        return Math.min(MAX_MILLIS, Math.max(MIN_MILLIS, scaled));
    }
}
