package dev.weir.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weir.api.Outcome;
import dev.weir.dispatch.Outcomes;
import dev.weir.store.ClaimedJob;
import java.time.Duration;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/** What each outcome counts as, from the {@code Finish} the engine writes for it. */
class JobEventTest {

    private static final ClaimedJob FIRST = new ClaimedJob(1, "k", "q", "{}", 1, 3, 1, 2);
    private static final ClaimedJob LAST = new ClaimedJob(1, "k", "q", "{}", 3, 3, 3, 2);

    @Test
    void outcomes() {
        assertEquals(JobEvent.COMPLETED, JobEvent.of(Outcomes.of(FIRST, Outcome.complete()), true));
        assertEquals(JobEvent.FAILED, JobEvent.of(Outcomes.of(FIRST, Outcome.fail("x")), true));
        assertEquals(JobEvent.FAILED, JobEvent.of(Outcomes.of(FIRST, Outcome.retryAfter(Duration.ZERO, "x")), true));
        assertEquals(JobEvent.FAILED, JobEvent.of(Outcomes.abandoned(FIRST, "i"), true));
        assertEquals(JobEvent.FAILED, JobEvent.of(Outcomes.deadlineExceeded(FIRST, 10), true));
        assertEquals(JobEvent.DISCARDED, JobEvent.of(Outcomes.of(LAST, Outcome.fail("x")), true));
        assertEquals(JobEvent.DISCARDED, JobEvent.of(Outcomes.of(FIRST, Outcome.discard("x")), false));
        assertEquals(JobEvent.CANCELLED, JobEvent.of(Outcomes.of(FIRST, Outcome.cancel("x")), true));
        assertEquals(JobEvent.SNOOZED, JobEvent.of(Outcomes.of(FIRST, Outcome.snooze(Duration.ofSeconds(5))), true));
        assertEquals(JobEvent.SNOOZED, JobEvent.of(Outcomes.of(FIRST, Outcome.snooze(Duration.ZERO)), true));
    }

    @Test
    void anExecutorRejectionIsNotASnooze() {
        assertEquals(JobEvent.REJECTED, JobEvent.of(Outcomes.rejected(FIRST), false));
    }

    @Test
    void theHappyPathIsFineTheRestIsInfoOrWarning() {
        assertEquals(Level.FINE, JobEvent.SUBMITTED.level());
        assertEquals(Level.FINE, JobEvent.STARTED.level());
        assertEquals(Level.FINE, JobEvent.COMPLETED.level());
        for (JobEvent e : JobEvent.values()) {
            if (e != JobEvent.SUBMITTED && e != JobEvent.STARTED && e != JobEvent.COMPLETED) {
                assertEquals(true, e.level().intValue() >= Level.INFO.intValue(), e.name());
            }
        }
    }
}
