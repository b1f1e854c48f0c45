package dev.weir.concurrency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LeasedSlotsTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void aLeaseAsksForSeveralGroupsWorthUpToItsCapAndNeverLessThanIsMissing() {
        int[][] table = {
            // group size, shortfall, slots asked for
            {1, 0, 0}, {1, 1, 8}, {7, 1, 56}, {7, 7, 56}, {8, 3, 64}, {20, 5, 64}, {100, 100, 100},
        };
        for (int[] row : table) {
            assertEquals(row[2], LeasedSlots.want(row[0], row[1]), "group " + row[0] + ", shortfall " + row[1]);
        }
    }

    @Test
    void eachSlotIsHandedOutOnce() {
        LeasedSlots pool = new LeasedSlots();
        assertTrue(pool.add("q", new int[] {1, 2, 3}, 0));
        int[] a = pool.take("q", 2, 0);
        int[] b = pool.take("q", 2, 0);
        assertEquals(2, a.length);
        assertEquals(1, b.length, "only what is left");
        int[] all = {a[0], a[1], b[0]};
        Arrays.sort(all);
        assertArrayEquals(new int[] {1, 2, 3}, all);
        assertEquals(0, pool.take("q", 1, 0).length);
        assertEquals(0, pool.take("other", 1, 0).length);
    }

    @Test
    void aQueueWhoseSlotsGoUntakenForASecondGivesThemBack() {
        LeasedSlots pool = new LeasedSlots();
        pool.add("busy", new int[] {1, 2}, 0);
        pool.add("idle", new int[] {7}, 0);
        pool.take("busy", 1, SECOND / 2);
        Map<String, int[]> idle = pool.drainIdle(SECOND);
        assertEquals(Map.of("idle", 1), Map.of("idle", idle.get("idle").length));
        assertEquals(1, idle.size());
        assertEquals(0, pool.held("idle"));
        assertEquals(1, pool.held("busy"));
        assertEquals(Map.of(), pool.drainIdle(SECOND + SECOND / 4), "busy was taken from half a second ago");
        assertEquals(1, pool.drainIdle(SECOND / 2 + SECOND).get("busy").length);
    }

    @Test
    void idleTimeCountsFromWhenAnEmptyPoolGotSlotsAgain() {
        LeasedSlots pool = new LeasedSlots();
        pool.add("q", new int[] {1}, 0);
        pool.take("q", 1, 0);
        pool.add("q", new int[] {2}, 5 * SECOND);
        assertEquals(Map.of(), pool.drainIdle(5 * SECOND + SECOND / 2));
        assertEquals(1, pool.drainIdle(6 * SECOND).get("q").length);
    }

    @Test
    void aLeaseThatFoundNothingPausesLeasingForAMoment() {
        LeasedSlots pool = new LeasedSlots();
        assertTrue(pool.mayLease("q", 0));
        pool.leased("q", 8, 0, 0);
        assertFalse(pool.mayLease("q", LeasedSlots.EMPTY_BACKOFF_NANOS - 1));
        assertTrue(pool.mayLease("q", LeasedSlots.EMPTY_BACKOFF_NANOS));
        pool.leased("q", 8, 3, LeasedSlots.EMPTY_BACKOFF_NANOS);
        assertTrue(pool.mayLease("q", LeasedSlots.EMPTY_BACKOFF_NANOS + 1), "a lease that found some does not pause");
    }

    @Test
    void closingHandsBackEverythingAndKeepsNothingAfter() {
        LeasedSlots pool = new LeasedSlots();
        pool.add("a", new int[] {1, 2}, 0);
        pool.add("b", new int[] {3}, 0);
        Map<String, int[]> all = pool.close();
        assertEquals(2, all.get("a").length);
        assertEquals(1, all.get("b").length);
        assertFalse(pool.add("a", new int[] {4}, 0), "the caller must give these back itself");
        assertEquals(0, pool.held("a"));
        assertFalse(pool.mayLease("a", SECOND));
    }
}
