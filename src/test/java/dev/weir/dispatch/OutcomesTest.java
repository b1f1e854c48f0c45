package dev.weir.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.api.Outcome;
import dev.weir.store.ClaimedJob;
import dev.weir.store.Finish;
import dev.weir.store.JobState;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class OutcomesTest {

    private static ClaimedJob job(int attempt, int max) {
        return new ClaimedJob(7, "k", "q", "{}", attempt, max, 3, 2);
    }

    @Test
    void completeFinalises() {
        Finish f = Outcomes.of(job(1, 5), Outcome.complete());
        assertEquals(JobState.COMPLETED, f.state());
        assertEquals(7, f.id());
        assertEquals(3, f.lease());
        assertNull(f.error());
    }

    @Test
    void failRetriesWithBackoffUntilTheLastAttempt() {
        Finish retry = Outcomes.of(job(2, 5), Outcome.fail("boom"));
        assertEquals(JobState.RETRYABLE, retry.state());
        assertTrue(retry.delayMs() >= 1600 && retry.delayMs() <= 2400, "attempt 2 waits about 2 s: " + retry.delayMs());
        assertEquals("boom", retry.error());
        Finish last = Outcomes.of(job(5, 5), Outcome.fail("boom"));
        assertEquals(JobState.DISCARDED, last.state());
        assertEquals("boom", last.error());
    }

    @Test
    void retryAfterUsesTheGivenDelay() {
        assertEquals(30_000, Outcomes.of(job(1, 5), Outcome.retryAfter(Duration.ofSeconds(30), "later")).delayMs());
        assertEquals(JobState.AVAILABLE, Outcomes.of(job(1, 5), Outcome.retryAfter(Duration.ZERO, "now")).state());
    }

    @Test
    void snoozeGivesTheAttemptBack() {
        Finish f = Outcomes.of(job(5, 5), Outcome.snooze(Duration.ofMinutes(1)));
        assertEquals(JobState.SCHEDULED, f.state());
        assertTrue(f.refund());
        assertNull(f.error());
    }

    @Test
    void discardAndCancelKeepTheirReason() {
        assertEquals(JobState.DISCARDED, Outcomes.of(job(1, 5), Outcome.discard("bad")).state());
        Finish c = Outcomes.of(job(1, 5), Outcome.cancel("user asked"));
        assertEquals(JobState.CANCELLED, c.state());
        assertEquals("user asked", c.error());
    }

    @Test
    void thrownErrorsAreDescribedAndCut() {
        Finish f = Outcomes.thrown(job(1, 5), new OutOfMemoryError("x".repeat(10_000)));
        assertTrue(f.error().startsWith("java.lang.OutOfMemoryError: xxx"));
        assertEquals(Outcomes.MAX_ERROR_LENGTH, f.error().length());
    }

    @Test
    void rejectionAndAbandonment() {
        Finish rejected = Outcomes.rejected(job(1, 1));
        assertEquals(JobState.AVAILABLE, rejected.state());
        assertTrue(rejected.refund());
        Finish abandoned = Outcomes.abandoned(job(1, 3), "i-1");
        assertEquals(JobState.AVAILABLE, abandoned.state());
        assertFalse(abandoned.refund());
        assertEquals(JobState.DISCARDED, Outcomes.abandoned(job(3, 3), "i-1").state());
    }
}
