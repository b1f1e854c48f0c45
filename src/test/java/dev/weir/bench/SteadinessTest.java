package dev.weir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SteadinessTest {

    @Test
    void fewerRoundsThanTheWindowAreNeverSteady() {
        Steadiness s = new Steadiness(3, 0.1);
        assertFalse(s.steady());
        s.add(1000);
        s.add(1000);
        assertFalse(s.steady());
        s.add(1000);
        assertTrue(s.steady());
    }

    @Test
    void aSlowRiseIsNotSteadyWhileTheWindowSpansMoreThanTheTolerance() {
        // The single submissions of a harness run: 7 % from one round to the next, 21 % over three.
        Steadiness s = new Steadiness(3, 0.1);
        for (double rate : new double[] {420, 562, 743, 934, 1039, 1227, 1316}) {
            s.add(rate);
            assertFalse(s.steady(), "after " + rate);
        }
        s.add(1380);
        assertFalse(s.steady()); // 1227..1380: 11 % of 1380
        s.add(1400);
        assertTrue(s.steady()); // 1316..1400: 6 %
        assertEquals(9, s.rates().size());
        assertEquals(List.of(1316.0, 1380.0, 1400.0), s.rates().subList(6, 9));
    }

    @Test
    void theToleranceIsOfTheLargestRateEitherWay() {
        Steadiness falling = new Steadiness(2, 0.1);
        falling.add(1000);
        falling.add(899); // 101 apart: more than a tenth of 1000
        assertFalse(falling.steady());
        falling.add(880);
        assertTrue(falling.steady());
    }

    @Test
    void roundsWithNothingDoneAreNotSteady() {
        Steadiness s = new Steadiness(2, 0.1);
        s.add(0);
        s.add(0);
        assertFalse(s.steady());
    }

    @Test
    void aWindowBelowTwoOrAToleranceOutsideZeroToOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Steadiness(1, 0.1));
        assertThrows(IllegalArgumentException.class, () -> new Steadiness(3, -0.1));
        assertThrows(IllegalArgumentException.class, () -> new Steadiness(3, 1));
        assertThrows(IllegalArgumentException.class, () -> new Steadiness(3, Double.NaN));
    }
}
