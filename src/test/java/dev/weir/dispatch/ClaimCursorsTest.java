package dev.weir.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.store.ClaimKey;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClaimCursorsTest {

    private static final long AGE = 60_000_000_000L;

    /** Moves {@code cursor} to {@code key} with a claim from its start. */
    private static void claimUpTo(ClaimCursor cursor, ClaimKey key) {
        ClaimCursor.Start start = cursor.start(0);
        cursor.claimed(start, start.fromStart(), List.of(key), false, 0);
    }

    @Test
    void eachLaneHasItsOwnCursorApartFromThePolls() {
        ClaimCursors cursors = new ClaimCursors(2, AGE);
        ClaimCursor lane0 = cursors.lane(0, new Lanes.Part(0, 2));
        ClaimCursor lane1 = cursors.lane(1, new Lanes.Part(1, 2));
        assertNotSame(lane0, lane1);
        assertNotSame(cursors.poll(), lane0);
        claimUpTo(lane0, new ClaimKey(2, 10, 40));
        assertEquals(new ClaimKey(2, 10, 40), cursors.lane(0, new Lanes.Part(0, 2)).start(1).after());
        assertTrue(cursors.lane(1, new Lanes.Part(1, 2)).start(1).fromStart());
        assertTrue(cursors.poll().start(1).fromStart());
    }

    @Test
    void aCursorOverTheWholeQueueStaysWhenTheLaneGetsAPart() {
        ClaimCursors cursors = new ClaimCursors(2, AGE);
        claimUpTo(cursors.lane(0, Lanes.Part.WHOLE), new ClaimKey(2, 10, 40));
        // Everything before it was claimed, of every part.
        assertEquals(new ClaimKey(2, 10, 40), cursors.lane(0, new Lanes.Part(0, 2)).start(1).after());
    }

    @Test
    void aCursorOverOnePartStartsAgainWhenThePartChanges() {
        ClaimCursors cursors = new ClaimCursors(2, AGE);
        claimUpTo(cursors.lane(1, new Lanes.Part(1, 2)), new ClaimKey(2, 10, 41));
        // The other part's jobs before it may still be waiting.
        assertTrue(cursors.lane(1, Lanes.Part.WHOLE).start(1).fromStart());
        claimUpTo(cursors.lane(1, new Lanes.Part(0, 2)), new ClaimKey(2, 10, 44));
        assertTrue(cursors.lane(1, new Lanes.Part(1, 2)).start(1).fromStart());
    }

    @Test
    void aResetSendsEveryCursorToTheHead() {
        ClaimCursors cursors = new ClaimCursors(2, AGE);
        claimUpTo(cursors.poll(), new ClaimKey(2, 10, 7));
        claimUpTo(cursors.lane(0, new Lanes.Part(0, 2)), new ClaimKey(2, 10, 8));
        claimUpTo(cursors.lane(1, new Lanes.Part(1, 2)), new ClaimKey(2, 10, 9));
        cursors.reset();
        assertTrue(cursors.poll().start(1).fromStart());
        assertTrue(cursors.lane(0, new Lanes.Part(0, 2)).start(1).fromStart());
        assertTrue(cursors.lane(1, new Lanes.Part(1, 2)).start(1).fromStart());
    }
}
