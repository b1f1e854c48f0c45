package dev.weir.admin;

import dev.weir.store.JobStore.FinalizedCount;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The window of {@code GET /api/stats/throughput}: {@code count} buckets of {@code bucketSeconds}, aligned to the
 * epoch, the last one holding {@code now} (so it is still filling), covering at least {@code seconds}. Pure: the
 * database counts finalized jobs per bucket and state, {@link #fill} turns that into every bucket, oldest first, zeros
 * included.
 *
 * @param fromEpochSecond the start of the first bucket (inclusive)
 * @param toEpochSecond   the end of the last bucket (exclusive)
 */
public record Throughput(int bucketSeconds, int count, long fromEpochSecond, long toEpochSecond) {

    public static final int MIN_SECONDS = 60;
    public static final int MAX_SECONDS = 3600;
    public static final int DEFAULT_SECONDS = 600;
    public static final int MIN_BUCKET = 1;
    public static final int MAX_BUCKET = 600;
    public static final int DEFAULT_BUCKET = 10;

    /** One bucket: when it starts and how many jobs reached each terminal state in it. */
    public record Bucket(Instant at, long completed, long discarded, long cancelled) {
    }

    /** Reads the raw parameters ({@code null} or blank: the default), or a 400 naming the bad one. */
    public static Throughput of(String seconds, String bucket, Instant now) {
        int s = bounded(seconds, "seconds", DEFAULT_SECONDS, MIN_SECONDS, MAX_SECONDS);
        int b = bounded(bucket, "bucket", DEFAULT_BUCKET, MIN_BUCKET, MAX_BUCKET);
        return window(s, b, now.getEpochSecond());
    }

    /** The window of {@code seconds} in buckets of {@code bucketSeconds}, the last holding {@code nowEpochSecond}. */
    static Throughput window(int seconds, int bucketSeconds, long nowEpochSecond) {
        int count = (seconds + bucketSeconds - 1) / bucketSeconds;
        long to = (Math.floorDiv(nowEpochSecond, bucketSeconds) + 1) * bucketSeconds;
        return new Throughput(bucketSeconds, count, to - (long) count * bucketSeconds, to);
    }

    /** Every bucket of the window, oldest first; counts outside the window or of other states are ignored. */
    public List<Bucket> fill(List<FinalizedCount> counts) {
        long[][] byBucket = new long[count][3];
        for (FinalizedCount c : counts) {
            if (c.bucket() < 0 || c.bucket() >= count) {
                continue;
            }
            int column = switch (c.state()) {
                case COMPLETED -> 0;
                case DISCARDED -> 1;
                case CANCELLED -> 2;
                default -> -1;
            };
            if (column >= 0) {
                byBucket[(int) c.bucket()][column] += c.count();
            }
        }
        List<Bucket> buckets = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            buckets.add(new Bucket(Instant.ofEpochSecond(fromEpochSecond + (long) i * bucketSeconds),
                    byBucket[i][0], byBucket[i][1], byBucket[i][2]));
        }
        return buckets;
    }

    private static int bounded(String raw, String name, int fallback, int min, int max) {
        if (raw == null || raw.isBlank()) {
            return fallback;
        }
        long n = JobListQuery.wholeNumber(raw, name);
        if (n < min || n > max) {
            throw new ApiError(400, "invalid_" + name, name + ": must be from " + min + " to " + max + ", was " + raw);
        }
        return (int) n;
    }
}
