package dev.weir.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SlotCursorTest {

    @Test
    void eachReservationStartsWhereThePreviousOneEnded() {
        SlotCursor cursor = new SlotCursor(10, 0);
        assertEquals(1, cursor.slotAt(cursor.reserve(3)));
        assertEquals(4, cursor.slotAt(cursor.reserve(5)));
        assertEquals(9, cursor.slotAt(cursor.reserve(4)));
        assertEquals(3, cursor.slotAt(cursor.reserve(1)), "9, 10, then round to 1 and 2: the next starts at 3");
    }

    @Test
    void slotsWrapRoundTheRing() {
        SlotCursor cursor = new SlotCursor(4, 0);
        assertEquals(1, cursor.slotAt(0));
        assertEquals(4, cursor.slotAt(3));
        assertEquals(1, cursor.slotAt(4));
        assertEquals(3, cursor.slotAt(4_000_000_002L));
    }

    @Test
    void aShortWindowMovesTheCursorPastItButNeverBack() {
        SlotCursor cursor = new SlotCursor(100, 0);
        long position = cursor.reserve(5);
        cursor.skip(position, 37);
        assertEquals(38, cursor.slotAt(cursor.reserve(1)));
        // A skip reported late, by an admission that started before the cursor moved on, does not move it back.
        cursor.skip(position, 10);
        assertEquals(39, cursor.slotAt(cursor.reserve(1)));
        // However wide the look, the cursor moves at most one lap (uncapped, 1,050 would land it 50 slots on).
        long at = cursor.reserve(1);
        cursor.skip(at, 1_050);
        assertEquals(cursor.slotAt(at), cursor.slotAt(cursor.reserve(1)));
    }

    @Test
    void concurrentReservationsNeverShareAStart() throws Exception {
        SlotCursor cursor = new SlotCursor(1_000_000, 0);
        Set<Long> starts = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        for (int t = 0; t < 8; t++) {
            pool.submit(() -> {
                for (int i = 0; i < 1000; i++) {
                    starts.add(cursor.reserve(3));
                }
            });
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(8000, starts.size());
        assertEquals(24_000, cursor.reserve(1), "each reservation moved the cursor by its size");
    }

    @Test
    void aQueueHasAtLeastOneSlot() {
        assertThrows(IllegalArgumentException.class, () -> new SlotCursor(0));
    }
}
