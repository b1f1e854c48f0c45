package dev.weir.concurrency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RetryAfterTest {

    @ParameterizedTest(name = "deficit {0} at {1}/s → {2} s")
    @CsvSource({
            // deficit, finishes per second, expected seconds
            "1,    10,    1",   // a tenth of a second rounds up to the minimum
            "10,   10,    1",
            "11,   10,    2",   // rounded up, never down
            "50,   2.5,  20",
            "1000, 1000,  1",
            "600,  10,   60",   // exactly the maximum
            "601,  10,   60",   // clamped
            "5,    0,    60",   // nothing finished recently: the maximum
            "5,    -1,   60",
            "0,    10,    1",   // a refusal always has a deficit of at least one
    })
    void estimate(long deficit, double rate, long seconds) {
        assertEquals(Duration.ofSeconds(seconds), RetryAfter.estimate(deficit, rate));
    }

    @Test
    void aRateThatIsNotANumberGivesTheMaximum() {
        assertEquals(RetryAfter.MAX, RetryAfter.estimate(3, Double.NaN));
    }

    @ParameterizedTest(name = "outstanding {0} + requested {1} − limit {2} = {3}")
    @CsvSource({
            "50, 1,  50, 1",
            "48, 5,  50, 3",
            "50, 10, 50, 10",
            // outstanding under the limit (seen before a racing submission committed): still at least one
            "40, 1,  50, 1",
    })
    void deficit(long outstanding, int requested, int limit, long expected) {
        assertEquals(expected, RetryAfter.deficit(outstanding, requested, limit));
    }

    @ParameterizedTest(name = "{0} → Retry-After: {1}")
    @CsvSource({
            "PT1S,     1",
            "PT1.2S,   2",
            "PT0.001S, 1",
            "PT0S,     1",
            "PT60S,   60",
    })
    void headerSecondsRoundUpAndAreAtLeastOne(Duration d, long seconds) {
        assertEquals(seconds, RetryAfter.headerSeconds(d));
    }
}
