package dev.weir.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JobLogLineTest {

    @Test
    void theFourFieldsComeFirstInOrderThenTheOthers() {
        assertEquals("weir.job completed queue=emails kind=welcome-email id=123 attempt=1 run_ms=12",
                JobLogLine.format(JobEvent.COMPLETED, "emails", "welcome-email", 123, 1, "run_ms", "12"));
    }

    @Test
    void aValueWithSpacesOrQuotesIsQuotedAndEscapedOnOneLine() {
        String line = JobLogLine.format(JobEvent.FAILED, "default", "report build", 7, 2,
                "error", "java.io.IOException: \"disk\" full\n\tat x.y(Z.java:1)", "path", "C:\\tmp");
        assertEquals("weir.job failed queue=default kind=\"report build\" id=7 attempt=2"
                + " error=\"java.io.IOException: \\\"disk\\\" full\\n\\tat x.y(Z.java:1)\" path=\"C:\\\\tmp\"", line);
        assertTrue(line.indexOf('\n') < 0);
    }

    @Test
    void aBareValueKeepsTheCharactersOfKindsAndDurations() {
        assertEquals("weir.job deadline-exceeded queue=q kind=example.welcome-email id=1 attempt=3 deadline=PT5M"
                + " at=2030-01-01T00:00:00Z who=a@b+c/d_e",
                JobLogLine.format(JobEvent.DEADLINE_EXCEEDED, "q", "example.welcome-email", 1, 3, "deadline", "PT5M",
                        "at", "2030-01-01T00:00:00Z", "who", "a@b+c/d_e"));
    }

    @Test
    void anEmptyValueIsQuotedAndANullValueLeftOut() {
        assertEquals("weir.job discarded queue=q kind=\"\" id=1 attempt=1 reason=\"\"",
                JobLogLine.format(JobEvent.DISCARDED, "q", "", 1, 1, "run_ms", null, "reason", ""));
    }

    @Test
    void aLongValueIsCut() {
        String line = JobLogLine.format(JobEvent.DISCARDED, "q", "k", 1, 1, "reason", "x".repeat(1000));
        assertEquals("weir.job discarded queue=q kind=k id=1 attempt=1 reason=\"" + "x".repeat(JobLogLine.MAX_VALUE - 1)
                + "…\"", line);
    }

    @Test
    void fieldsComeInPairs() {
        assertThrows(IllegalArgumentException.class,
                () -> JobLogLine.format(JobEvent.COMPLETED, "q", "k", 1, 1, "run_ms"));
    }

    @Test
    void firstLineOfAStackTrace() {
        assertEquals("java.lang.IllegalStateException: boom",
                JobLogLine.firstLine("java.lang.IllegalStateException: boom\r\n\tat a.b(C.java:1)\n"));
        assertEquals("one line", JobLogLine.firstLine("one line"));
        assertEquals(null, JobLogLine.firstLine(null));
    }
}
