package dev.weir.admin;

import dev.weir.store.JobState;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The query parameters of {@code GET /api/jobs} ({@code queue}, {@code state}, {@code kind}, {@code before},
 * {@code limit}), checked: a bad value is an {@link ApiError} 400 naming the parameter, a queue that is not configured
 * a 404. An absent or empty parameter means no filter (or the default).
 *
 * @param state  null: any
 * @param queue  null: any
 * @param kind   null: any
 * @param before only jobs with a lower id; {@link Long#MAX_VALUE} when absent
 * @param limit  the most jobs on the page, 1–{@value #MAX_LIMIT}
 */
public record JobListQuery(JobState state, String queue, String kind, long before, int limit) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 500;
    /** The longest kind a filter may name. */
    static final int MAX_KIND_LENGTH = 255;

    /** Reads the raw parameters; {@code knownQueue} tells which queue names are configured. */
    public static JobListQuery parse(String queue, String state, String kind, String before, String limit,
            Predicate<String> knownQueue) {
        String q = blankToNull(queue);
        if (q != null && !knownQueue.test(q)) {
            throw new ApiError(404, "unknown_queue", "queue: '" + q + "' is not configured (see weir.queues)");
        }
        return new JobListQuery(state(blankToNull(state)), q, kind(blankToNull(kind)),
                before(blankToNull(before)), limit(blankToNull(limit)));
    }

    static JobState state(String raw) {
        if (raw == null) {
            return null;
        }
        for (JobState s : JobState.values()) {
            if (s.dbName().equals(raw)) {
                return s;
            }
        }
        throw new ApiError(400, "invalid_state", "state: '" + raw + "' is not a job state (one of "
                + String.join(", ", java.util.Arrays.stream(JobState.values()).map(JobState::dbName).toList()) + ")");
    }

    static String kind(String raw) {
        if (raw != null && raw.length() > MAX_KIND_LENGTH) {
            throw new ApiError(400, "invalid_kind", "kind: longer than " + MAX_KIND_LENGTH + " characters");
        }
        return raw;
    }

    static long before(String raw) {
        if (raw == null) {
            return Long.MAX_VALUE;
        }
        long id = wholeNumber(raw, "before");
        if (id < 1) {
            throw new ApiError(400, "invalid_before", "before: must be a job id (1 or more), was " + raw);
        }
        return id;
    }

    static int limit(String raw) {
        if (raw == null) {
            return DEFAULT_LIMIT;
        }
        long n = wholeNumber(raw, "limit");
        if (n < 1 || n > MAX_LIMIT) {
            throw new ApiError(400, "invalid_limit", "limit: must be from 1 to " + MAX_LIMIT + ", was " + raw);
        }
        return (int) n;
    }

    /** A whole number in a query parameter, or a 400 {@code invalid_<name>}. */
    static long wholeNumber(String raw, String name) {
        try {
            return Long.parseLong(raw.strip());
        } catch (NumberFormatException e) {
            throw new ApiError(400, "invalid_" + name.toLowerCase(Locale.ROOT), name + ": must be a whole number, was '"
                    + raw + "'");
        }
    }

    static String blankToNull(String raw) {
        return raw == null || raw.isBlank() ? null : raw;
    }
}
