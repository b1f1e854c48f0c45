package dev.weir.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.store.ClaimKey;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClaimCursorTest {

    private static final long AGE = 1_000;
    private static final ClaimKey A = new ClaimKey(2, 100, 7);
    private static final ClaimKey B = new ClaimKey(2, 100, 9);
    private static final ClaimKey C = new ClaimKey(2, 101, 3);
    private static final ClaimKey URGENT = new ClaimKey(1, 500, 99);

    @Test
    void keysOrderByPriorityThenRunAtThenId() {
        List<ClaimKey> sorted = new java.util.ArrayList<>(List.of(C, URGENT, B, ClaimKey.START, A));
        java.util.Collections.sort(sorted);
        assertEquals(List.of(ClaimKey.START, URGENT, A, B, C), sorted);
        assertEquals(C, ClaimKey.max(B, C));
        assertEquals(C, ClaimKey.max(C, B));
    }

    @Test
    void theFirstClaimReadsTheQueueFromItsHeadAndTheNextOneFromTheLastJobClaimed() {
        ClaimCursor cursor = new ClaimCursor(AGE);
        ClaimCursor.Start first = cursor.start(0);
        assertTrue(first.fromStart());
        cursor.claimed(first, true, List.of(B, A), false, 0);
        assertEquals(B, cursor.start(10).after(), "the latest key claimed, whatever the order it came in");
    }

    @Test
    void aClaimThatFindsTooFewJobsSendsTheNextOneToTheHead() {
        ClaimCursor cursor = new ClaimCursor(AGE);
        cursor.claimed(cursor.start(0), true, List.of(A), false, 0);
        ClaimCursor.Start second = cursor.start(1);
        cursor.claimed(second, true, List.of(B), true, 1);
        assertEquals(ClaimKey.START, cursor.start(2).after());
    }

    @Test
    void aResetSendsTheNextClaimToTheHeadAndAClaimBegunBeforeItMovesNothing() {
        ClaimCursor cursor = new ClaimCursor(AGE);
        cursor.claimed(cursor.start(0), true, List.of(A), false, 0);
        ClaimCursor.Start before = cursor.start(1);
        cursor.reset();
        cursor.claimed(before, false, List.of(C), false, 2);
        assertEquals(ClaimKey.START, cursor.start(3).after(), "the claim that began before the reset is ignored");
    }

    @Test
    void theCursorExpiresAfterItsAgeCountedFromTheLastClaimThatReadTheHead() {
        ClaimCursor cursor = new ClaimCursor(AGE);
        cursor.claimed(cursor.start(0), true, List.of(A), false, 0);
        ClaimCursor.Start fromCursor = cursor.start(500);
        assertEquals(A, fromCursor.after());
        // A claim from the cursor does not make it younger.
        cursor.claimed(fromCursor, false, List.of(B), false, 500);
        assertEquals(B, cursor.start(999).after());
        assertEquals(ClaimKey.START, cursor.start(1_000).after(), "old enough: read the head again");
        cursor.claimed(cursor.start(1_000), true, List.of(C), false, 1_000);
        assertEquals(C, cursor.start(1_999).after());
    }

    @Test
    void concurrentClaimsKeepTheLaterKey() {
        ClaimCursor cursor = new ClaimCursor(AGE);
        cursor.claimed(cursor.start(0), true, List.of(A), false, 0);
        ClaimCursor.Start poll = cursor.start(1);
        ClaimCursor.Start renewal = cursor.start(1);
        cursor.claimed(renewal, false, List.of(C), false, 2);
        cursor.claimed(poll, false, List.of(B), false, 2);
        assertEquals(C, cursor.start(3).after());
    }
}
