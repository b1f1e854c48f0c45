package dev.weir.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

class StartTreeTest {

    @Test
    void reachesEveryPositionOfABatchExactlyOnce() {
        for (int size = 0; size <= 1000; size++) {
            int[] reached = new int[size];
            int[] depth = new int[size];
            Deque<Integer> handed = new ArrayDeque<>();
            for (int i = 0; i < StartTree.roots(size); i++) {
                handed.add(i);
                depth[i] = 1;
            }
            int deepest = 0;
            while (!handed.isEmpty()) {
                int i = handed.poll();
                reached[i]++;
                deepest = Math.max(deepest, depth[i]);
                for (int c = StartTree.firstChild(i); c < StartTree.endOfChildren(i, size); c++) {
                    handed.add(c);
                    depth[c] = depth[i] + 1;
                }
            }
            for (int i = 0; i < size; i++) {
                assertEquals(1, reached[i], "position " + i + " of " + size);
            }
            // The last attempt waits for about log2(size) hand-overs, not size of them.
            int bound = size == 0 ? 0 : 32 - Integer.numberOfLeadingZeros(size + 1);
            assertTrue(deepest <= bound, size + " positions reached in " + deepest + " hand-overs, more than "
                    + bound);
        }
    }

    @Test
    void theClaimingThreadHandsOverTwoAtMost() {
        assertEquals(0, StartTree.roots(0));
        assertEquals(1, StartTree.roots(1));
        assertEquals(2, StartTree.roots(50));
    }
}
