package dev.weir.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.store.JobState;
import dev.weir.store.JobStore.FinalizedCount;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThroughputTest {

    @Test
    void theWindowIsAlignedToTheBucketAndEndsWithTheBucketHoldingNow() {
        Throughput t = Throughput.window(600, 10, 1_000_005);
        assertEquals(60, t.count());
        assertEquals(1_000_010, t.toEpochSecond());
        assertEquals(1_000_010 - 600, t.fromEpochSecond());
        // now exactly on a boundary starts a new bucket
        assertEquals(1_000_020, Throughput.window(600, 10, 1_000_010).toEpochSecond());
    }

    @Test
    void aWindowNotAMultipleOfTheBucketIsRoundedUp() {
        Throughput t = Throughput.window(60, 7, 700);
        assertEquals(9, t.count());
        assertEquals(63, t.toEpochSecond() - t.fromEpochSecond());
        Throughput one = Throughput.window(60, 600, 1234);
        assertEquals(1, one.count());
        assertEquals(1200, one.fromEpochSecond());
    }

    @Test
    void everyBucketIsPresentOldestFirstWithZeros() {
        Throughput t = Throughput.window(60, 10, 1_000_005);
        List<Throughput.Bucket> b = t.fill(List.of(
                new FinalizedCount(0, JobState.COMPLETED, 5),
                new FinalizedCount(0, JobState.DISCARDED, 1),
                new FinalizedCount(5, JobState.CANCELLED, 2),
                new FinalizedCount(5, JobState.COMPLETED, 7),
                new FinalizedCount(6, JobState.COMPLETED, 99),   // outside: ignored
                new FinalizedCount(-1, JobState.COMPLETED, 99),
                new FinalizedCount(2, JobState.RUNNING, 99)));   // not a terminal state: ignored
        assertEquals(6, b.size());
        assertEquals(Instant.ofEpochSecond(t.fromEpochSecond()), b.get(0).at());
        assertEquals(new Throughput.Bucket(b.get(0).at(), 5, 1, 0), b.get(0));
        for (int i = 1; i < 5; i++) {
            assertEquals(0, b.get(i).completed() + b.get(i).discarded() + b.get(i).cancelled());
            assertEquals(b.get(i - 1).at().plusSeconds(10), b.get(i).at());
        }
        assertEquals(new Throughput.Bucket(b.get(5).at(), 7, 0, 2), b.get(5));
    }

    @Test
    void parametersHaveDefaultsAndBounds() {
        Instant now = Instant.ofEpochSecond(1_000_005);
        Throughput d = Throughput.of(null, "", now);
        assertEquals(10, d.bucketSeconds());
        assertEquals(60, d.count());
        assertEquals(3600 / 600, Throughput.of("3600", "600", now).count());
        for (String[] bad : new String[][] {{"59", null}, {"3601", null}, {"x", null}, {null, "0"}, {null, "601"},
                {null, "2.5"}}) {
            ApiError e = assertThrows(ApiError.class, () -> Throughput.of(bad[0], bad[1], now));
            assertTrue(e.getMessage().startsWith(bad[0] != null ? "seconds:" : "bucket:"), e.getMessage());
        }
    }
}
