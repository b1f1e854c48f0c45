package dev.weir.cron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CronExpressionTest {

    @ParameterizedTest(name = "{0} after {1} → {2}")
    @CsvSource(delimiter = '|', textBlock = """
            * * * * *            | 2026-11-29T10:15:30Z[UTC]           | 2026-11-29T10:16Z[UTC]
            */15 * * * *         | 2026-11-29T10:15:00Z[UTC]           | 2026-11-29T10:30Z[UTC]
            0 9 * * MON-FRI      | 2026-11-27T09:00:00Z[UTC]           | 2026-11-30T09:00Z[UTC]
            30 2 1 jan,Jul *     | 2026-11-29T00:00:00Z[UTC]           | 2027-01-01T02:30Z[UTC]
            0 0 29 2 *           | 2026-03-01T00:00:00Z[UTC]           | 2028-02-29T00:00Z[UTC]
            0 12 13 * 5          | 2026-11-29T00:00:00Z[UTC]           | 2026-12-04T12:00Z[UTC]
            5/20 * * * * *       | 2026-11-29T10:00:06Z[UTC]           | 2026-11-29T10:00:25Z[UTC]
            0 0 * * 7            | 2026-11-29T00:00:00Z[UTC]           | 2026-12-06T00:00Z[UTC]
            @hourly              | 2026-11-29T10:00:00Z[UTC]           | 2026-11-29T11:00Z[UTC]
            @weekly              | 2026-11-29T00:00:00Z[UTC]           | 2026-12-06T00:00Z[UTC]
            0 9 * * *            | 2026-11-29T09:30+01:00[Europe/Paris] | 2026-11-30T09:00+01:00[Europe/Paris]
            30 2 * * *           | 2026-03-29T00:00+01:00[Europe/Paris] | 2026-03-29T03:30+02:00[Europe/Paris]
            30 2 * * *           | 2026-10-25T00:00+02:00[Europe/Paris] | 2026-10-25T02:30+02:00[Europe/Paris]
            30 2 * * *           | 2026-10-25T02:30+02:00[Europe/Paris] | 2026-10-26T02:30+01:00[Europe/Paris]
            """)
    void nextFireTime(String schedule, String after, String expected) {
        assertEquals(ZonedDateTime.parse(expected),
                CronExpression.parse(schedule).next(ZonedDateTime.parse(after)).orElseThrow());
    }

    @Test
    void bothDayFieldsRestrictedMeansEither() {
        // The 13th, or any Friday: from Sunday 29 November 2026 the next is Friday 4 December.
        CronExpression cron = CronExpression.parse("0 0 13 * FRI");
        ZonedDateTime t = ZonedDateTime.parse("2026-11-29T00:00Z[UTC]");
        assertEquals(ZonedDateTime.parse("2026-12-04T00:00Z[UTC]"), cron.next(t).orElseThrow());
        assertEquals(ZonedDateTime.parse("2026-12-11T00:00Z[UTC]"),
                cron.next(ZonedDateTime.parse("2026-12-04T00:00Z[UTC]")).orElseThrow());
        assertEquals(ZonedDateTime.parse("2026-12-13T00:00Z[UTC]"),
                cron.next(ZonedDateTime.parse("2026-12-11T00:00Z[UTC]")).orElseThrow());
    }

    @Test
    void fireTimesAreStrictlyIncreasingAndMatchTheirStep() {
        CronExpression cron = CronExpression.parse("*/7 * * * * *");
        ZonedDateTime t = ZonedDateTime.parse("2026-11-29T23:59:00Z[UTC]");
        for (int i = 0; i < 50; i++) {
            ZonedDateTime next = cron.next(t).orElseThrow();
            assertTrue(next.isAfter(t));
            assertEquals(0, next.getSecond() % 7, next.toString());
            t = next;
        }
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @CsvSource(delimiter = '|', textBlock = """
            ''                  | empty
            * * * *             | 5 fields
            * * * * * * *       | 5 fields
            60 * * * *          | minute: 60 is outside 0–59
            * 24 * * *          | hour: 24 is outside 0–23
            * * 0 * *           | day of month: 0 is outside 1–31
            * * * 13 *          | month: 13 is outside 1–12
            * * * * 8           | day of week: 8 is outside 0–7
            * * * foo *         | month: 'foo' is not a number or a name
            5-1 * * * *         | minute: range 5-1 runs backwards
            */0 * * * *         | minute: 0 is outside 1–59
            0 0 30 2 *          | never fires
            @fortnightly        | unknown macro
            """)
    void badSchedulesAreRefusedWithTheReason(String schedule, String reason) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CronExpression.parse(schedule));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }
}
