package dev.weir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SteadinessTest {

    @Test
    void oneRoundIsNeverSteady() {
        Steadiness s = new Steadiness(0.1);
        assertFalse(s.steady());
        s.add(1000);
        assertFalse(s.steady());
    }

    @Test
    void risingRoundsAreNotSteadyUntilTwoInARowAgree() {
        Steadiness s = new Steadiness(0.1);
        for (double rate : new double[] {835, 1900, 3100, 4000}) {
            s.add(rate);
            assertFalse(s.steady(), "after " + rate);
        }
        s.add(4350); // 350 apart, within a tenth of 4350
        assertTrue(s.steady());
        assertEquals(List.of(835.0, 1900.0, 3100.0, 4000.0, 4350.0), s.rates());
    }

    @Test
    void theToleranceIsOfTheLargerRateEitherWay() {
        Steadiness falling = new Steadiness(0.1);
        falling.add(1000);
        falling.add(899); // 101 apart: more than a tenth of 1000
        assertFalse(falling.steady());
        falling.add(880);
        assertTrue(falling.steady());
    }

    @Test
    void roundsWithNothingDoneAreNotSteady() {
        Steadiness s = new Steadiness(0.1);
        s.add(0);
        s.add(0);
        assertFalse(s.steady());
    }

    @Test
    void aToleranceOutsideZeroToOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Steadiness(-0.1));
        assertThrows(IllegalArgumentException.class, () -> new Steadiness(1));
        assertThrows(IllegalArgumentException.class, () -> new Steadiness(Double.NaN));
    }
}
