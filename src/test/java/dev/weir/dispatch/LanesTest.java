package dev.weir.dispatch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LanesTest {

    private static final boolean[] NONE = {false, false};

    @Test
    void aClaimThatFitsTheFirstLaneGoesThereWhole() {
        assertArrayEquals(new int[] {16, 0}, Lanes.split(16, new int[] {0, 0}, NONE, 50));
        assertArrayEquals(new int[] {50, 0}, Lanes.split(50, new int[] {0, 0}, NONE, 50));
        // Eight queues of two: each small claim joins the first lane while it has room.
        assertArrayEquals(new int[] {2, 0}, Lanes.split(2, new int[] {14, 0}, NONE, 50));
    }

    @Test
    void aClaimTheFirstLaneHasNoRoomForGoesWholeToALaneThatHas() {
        // A queue of 50 permits claimed after one of 30: the whole claim on the second lane, not 20 and 30.
        assertArrayEquals(new int[] {0, 50}, Lanes.split(50, new int[] {30, 0}, NONE, 50));
        assertArrayEquals(new int[] {0, 40}, Lanes.split(40, new int[] {40, 0}, NONE, 50));
        assertArrayEquals(new int[] {0, 5}, Lanes.split(5, new int[] {50, 7}, NONE, 50));
    }

    @Test
    void aClaimGoesWholeToALaneThatCarriesItsQueueFirst() {
        assertArrayEquals(new int[] {0, 5}, Lanes.split(5, new int[] {10, 20}, new boolean[] {false, true}, 50));
        // No room there for the whole claim: the first lane that has it.
        assertArrayEquals(new int[] {10, 0}, Lanes.split(10, new int[] {10, 45}, new boolean[] {false, true}, 50));
        // Carried by both: the first in order.
        assertArrayEquals(new int[] {5, 0}, Lanes.split(5, new int[] {10, 20}, new boolean[] {true, true}, 50));
    }

    @Test
    void aClaimNoLaneHasRoomForFillsThemInOrder() {
        assertArrayEquals(new int[] {50, 50}, Lanes.split(100, new int[] {0, 0}, NONE, 50));
        assertArrayEquals(new int[] {10, 50}, Lanes.split(60, new int[] {40, 0}, NONE, 50));
        assertArrayEquals(new int[] {20, 30}, Lanes.split(50, new int[] {30, 20}, new boolean[] {false, true}, 50));
    }

    @Test
    void whatIsLeftWhenEveryLaneIsFullGoesToTheLeastLoaded() {
        assertArrayEquals(new int[] {100, 100}, Lanes.split(200, new int[] {0, 0}, NONE, 50));
        assertArrayEquals(new int[] {1, 3}, Lanes.split(4, new int[] {52, 50}, NONE, 50));
        assertArrayEquals(new int[] {0, 0, 0}, Lanes.split(0, new int[] {0, 0, 0}, new boolean[3], 50));
        int[] share = Lanes.split(7, new int[] {60, 60, 60}, new boolean[3], 50);
        assertEquals(7, share[0] + share[1] + share[2]);
        assertArrayEquals(new int[] {3, 2, 2}, share);
    }

    @Test
    void aLaneAloneClaimsFromTheWholeQueue() {
        assertEquals(Lanes.Part.WHOLE, Lanes.part(0, new boolean[] {true, false}));
        assertEquals(Lanes.Part.WHOLE, Lanes.part(1, new boolean[] {false, true}));
        // A lane counts itself even when it carries nothing of the queue (yet).
        assertEquals(Lanes.Part.WHOLE, Lanes.part(0, new boolean[] {false, false}));
    }

    @Test
    void lanesThatCarryAttemptsTogetherClaimDisjointParts() {
        assertEquals(new Lanes.Part(0, 2), Lanes.part(0, new boolean[] {true, true}));
        assertEquals(new Lanes.Part(1, 2), Lanes.part(1, new boolean[] {true, true}));
        assertEquals(new Lanes.Part(1, 2), Lanes.part(1, new boolean[] {true, false}));
        // Ranks among the lanes that carry attempts: the idle middle lane takes no part.
        assertEquals(new Lanes.Part(0, 2), Lanes.part(0, new boolean[] {true, false, true}));
        assertEquals(new Lanes.Part(1, 2), Lanes.part(2, new boolean[] {true, false, true}));
        for (int lanes = 1; lanes <= 4; lanes++) {
            boolean[] carrying = new boolean[lanes];
            java.util.Arrays.fill(carrying, true);
            boolean[] seen = new boolean[lanes];
            for (int lane = 0; lane < lanes; lane++) {
                Lanes.Part p = Lanes.part(lane, carrying);
                assertEquals(lanes, p.parts());
                seen[p.part()] = true;
            }
            for (boolean s : seen) {
                assertEquals(true, s, "every part is some lane's, with " + lanes + " lanes");
            }
        }
    }

    @Test
    void refusesWhatCannotBeSplit() {
        assertThrows(IllegalArgumentException.class, () -> Lanes.split(-1, new int[] {0}, new boolean[1], 50));
        assertThrows(IllegalArgumentException.class, () -> Lanes.split(1, new int[] {}, new boolean[0], 50));
        assertThrows(IllegalArgumentException.class, () -> Lanes.split(1, new int[] {0}, new boolean[1], 0));
        assertThrows(IllegalArgumentException.class, () -> Lanes.split(1, new int[] {0}, new boolean[2], 50));
        assertThrows(IllegalArgumentException.class, () -> Lanes.part(2, new boolean[] {false, false}));
        assertThrows(IllegalArgumentException.class, () -> new Lanes.Part(2, 2));
    }
}
