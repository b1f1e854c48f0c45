package dev.weir.store;

/**
 * A job's place in claim order: {@code (priority, run_at, id)}, the key of the index {@code jobs_available} after the
 * queue. {@link #START} comes before every job (priorities start at 1).
 *
 * @param runAtMicros the job's {@code run_at} in microseconds since the epoch (PostgreSQL's own precision)
 */
public record ClaimKey(int priority, long runAtMicros, long id) implements Comparable<ClaimKey> {

    /** Before every job: a claim after it reads the queue from its start. */
    public static final ClaimKey START = new ClaimKey(0, 0, 0);

    @Override
    public int compareTo(ClaimKey o) {
        if (priority != o.priority) {
            return Integer.compare(priority, o.priority);
        }
        if (runAtMicros != o.runAtMicros) {
            return Long.compare(runAtMicros, o.runAtMicros);
        }
        return Long.compare(id, o.id);
    }

    /** The later of two keys. */
    public static ClaimKey max(ClaimKey a, ClaimKey b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
