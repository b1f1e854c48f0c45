package dev.weir.api;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Makes a submission unique: while a job with the same key is in one of {@code states}, submitting another returns
 * that job instead of storing a new one (an insert-or-get, not an error). The key is always the job's kind, plus
 * its queue when {@code byQueue}, its arguments (as canonical JSON: key order and spacing do not matter) when
 * {@code byArgs}, and the current window of {@code period} when set (so "at most one per hour" is
 * {@code period = PT1H}).
 *
 * @param byQueue whether the queue is part of the key
 * @param byArgs  whether the arguments are part of the key
 * @param period  when set, windows of this length (aligned to the epoch) are part of the key
 * @param states  the states in which a job blocks duplicates: every unfinished state ({@link #UNFINISHED}) and
 *                any of {@code completed}, {@code discarded}, {@code cancelled}
 */
public record Unique(boolean byQueue, boolean byArgs, Duration period, Set<String> states) {

    /** The states a unique job always blocks duplicates in: a job cannot move between them and the others. */
    public static final List<String> UNFINISHED = List.of("scheduled", "available", "running", "retryable");
    private static final List<String> FINISHED = List.of("completed", "discarded", "cancelled");

    public Unique {
        if (period != null && (period.isNegative() || period.isZero())) {
            throw new InvalidJobException("invalid_unique", "unique period must be positive, was " + period);
        }
        states = states == null ? Set.copyOf(UNFINISHED) : Set.copyOf(states);
        for (String s : states) {
            if (!UNFINISHED.contains(s) && !FINISHED.contains(s)) {
                throw new InvalidJobException("invalid_unique", "unique states: unknown state '" + s + "'");
            }
        }
        if (!states.containsAll(UNFINISHED)) {
            throw new InvalidJobException("invalid_unique", "unique states must include every unfinished state "
                    + UNFINISHED + ", were " + sorted(states));
        }
    }

    /** Unique by kind and arguments, among unfinished jobs. */
    public static Unique sameArgs() {
        return new Unique(false, true, null, null);
    }

    public Unique withQueue() {
        return new Unique(true, byArgs, period, states);
    }

    public Unique within(Duration newPeriod) {
        return new Unique(byQueue, byArgs, newPeriod, states);
    }

    /** Also blocks duplicates while a job is in the given finished states. */
    public Unique alsoWhen(String... finished) {
        Set<String> more = new LinkedHashSet<>(states);
        more.addAll(List.of(finished));
        return new Unique(byQueue, byArgs, period, more);
    }

    /** The states in a fixed order (for storage and messages). */
    public List<String> sortedStates() {
        return sorted(states);
    }

    private static List<String> sorted(Set<String> states) {
        return states.stream().sorted((a, b) -> Integer.compare(order(a), order(b))).toList();
    }

    private static int order(String state) {
        int i = UNFINISHED.indexOf(state);
        return i >= 0 ? i : UNFINISHED.size() + FINISHED.indexOf(state);
    }
}
