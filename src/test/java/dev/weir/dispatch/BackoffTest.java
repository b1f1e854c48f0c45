package dev.weir.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @ParameterizedTest(name = "attempt {0} → {1} ms at the middle of the band")
    @CsvSource({"1, 1000", "2, 2000", "3, 4000", "10, 512000", "15, 16384000", "16, 21600000", "25, 21600000",
            "1000, 21600000"})
    void doublesUntilTheCap(int attempt, long ms) {
        assertEquals(Duration.ofMillis(ms), Backoff.delay(attempt, 0.5));
    }

    @Test
    void jitterStaysWithinTwentyPercent() {
        assertEquals(Duration.ofMillis(3200), Backoff.delay(3, 0.0));
        Duration high = Backoff.delay(3, 0.999999);
        assertTrue(high.toMillis() >= 4799 && high.toMillis() <= 4800, high.toString());
    }

    @Test
    void refusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> Backoff.delay(0, 0.5));
        assertThrows(IllegalArgumentException.class, () -> Backoff.delay(1, 1.0));
    }
}
