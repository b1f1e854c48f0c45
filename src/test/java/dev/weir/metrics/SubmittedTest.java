package dev.weir.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weir.store.JobState;
import dev.weir.store.JobStore;
import dev.weir.store.NewJob;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A batch counts once per (queue, kind), duplicates not at all. */
class SubmittedTest {

    private final List<String> calls = new ArrayList<>();
    private final WeirMetrics metrics = new WeirMetrics() {
        @Override
        public void submitted(String queue, String kind, int jobs) {
            calls.add(queue + "/" + kind + "=" + jobs);
        }
    };

    private static NewJob job(String queue, String kind) {
        return new NewJob(kind, queue, "{}", 2, 25, null, null, List.of());
    }

    private static JobStore.Inserted in(long id, String queue, boolean duplicate) {
        return new JobStore.Inserted(id, JobState.AVAILABLE, queue, duplicate);
    }

    @Test
    void aBatchIsCountedPerQueueAndKind() {
        Submitted.record(metrics,
                List.of(job("a", "x"), job("a", "x"), job("b", "x"), job("a", "y"), job("a", "x")),
                List.of(in(1, "a", false), in(2, "a", false), in(3, "b", false), in(4, "a", false), in(5, "a", false)));
        assertEquals(List.of("a/x=3", "b/x=1", "a/y=1"), calls);
    }

    @Test
    void aDuplicateIsNotASubmission() {
        Submitted.record(metrics, List.of(job("a", "x")), List.of(in(1, "a", true)));
        Submitted.record(metrics, List.of(job("a", "x"), job("a", "x")), List.of(in(1, "a", true), in(2, "a", false)));
        assertEquals(List.of("a/x=1"), calls);
    }

    @Test
    void equalNamesMakeOneRunAcrossADuplicate() {
        Submitted.record(metrics,
                List.of(job("a", "x"), job("a", "x"), job(new String("a".toCharArray()), new String("x".toCharArray())),
                        job("b", "x")),
                List.of(in(1, "a", false), in(2, "a", true), in(3, "a", false), in(4, "b", false)));
        assertEquals(List.of("a/x=2", "b/x=1"), calls);
    }

    @Test
    void everyJobNeedsAnAnswer() {
        assertThrows(IllegalArgumentException.class,
                () -> Submitted.record(metrics, List.of(job("a", "x")), List.of()));
    }
}
