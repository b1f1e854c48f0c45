package dev.weir.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.store.JobState;
import dev.weir.store.JobStore;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobListQueryTest {

    private static final Set<String> QUEUES = Set.of("default", "emails");

    private static JobListQuery parse(String queue, String state, String kind, String before, String limit) {
        return JobListQuery.parse(queue, state, kind, before, limit, QUEUES::contains);
    }

    private static ApiError refused(String queue, String state, String kind, String before, String limit) {
        return assertThrows(ApiError.class, () -> parse(queue, state, kind, before, limit));
    }

    @Test
    void absentOrEmptyParametersMeanNoFilterAndTheDefaults() {
        JobListQuery q = parse(null, "", null, " ", null);
        assertNull(q.state());
        assertNull(q.queue());
        assertNull(q.kind());
        assertEquals(Long.MAX_VALUE, q.before());
        assertEquals(50, q.limit());
    }

    @Test
    void everyFilterIsRead() {
        JobListQuery q = parse("emails", "discarded", "example.welcome-email", "1234", "500");
        assertEquals(JobState.DISCARDED, q.state());
        assertEquals("emails", q.queue());
        assertEquals("example.welcome-email", q.kind());
        assertEquals(1234, q.before());
        assertEquals(500, q.limit());
    }

    @Test
    void badValuesAre400sNamingTheParameter() {
        ApiError state = refused(null, "finished", null, null, null);
        assertEquals("invalid_state", state.code());
        assertEquals("invalid_limit", refused(null, null, null, null, "0").code());
        assertEquals("invalid_before", refused(null, null, null, "x", null).code());
        assertTrue(state.getMessage().startsWith("state:"), state.getMessage());
        assertTrue(refused(null, "RUNNING", null, null, null).getMessage().startsWith("state:"));
        assertTrue(refused(null, null, null, "abc", null).getMessage().startsWith("before:"));
        assertTrue(refused(null, null, null, "0", null).getMessage().startsWith("before:"));
        assertTrue(refused(null, null, null, "-5", null).getMessage().startsWith("before:"));
        assertTrue(refused(null, null, null, null, "0").getMessage().startsWith("limit:"));
        assertTrue(refused(null, null, null, null, "501").getMessage().startsWith("limit:"));
        assertTrue(refused(null, null, null, null, "1.5").getMessage().startsWith("limit:"));
        assertTrue(refused(null, null, null, null, "99999999999999999999").getMessage().startsWith("limit:"));
        assertTrue(refused(null, null, "x".repeat(256), null, null).getMessage().startsWith("kind:"));
    }

    @Test
    void anUnknownQueueIsA404() {
        ApiError e = refused("nope", null, null, null, null);
        assertTrue(e.getMessage().contains("'nope'"), e.getMessage());
        assertEquals(404, status(e));
        assertEquals(400, status(refused(null, "nope", null, null, null)));
    }

    @Test
    void theNextPageStartsAfterAFullPageOrWhereTheLookStopped() {
        JobStore.JobSummary a = summary(90);
        JobStore.JobSummary b = summary(80);
        assertEquals(80L, JobsResource.nextBefore(new JobStore.JobPage(List.of(a, b), 70L, 30), 2, 5000));
        // Short page, look capped: go on from the lowest id looked at.
        assertEquals(70L, JobsResource.nextBefore(new JobStore.JobPage(List.of(a), 70L, 5000), 2, 5000));
        assertEquals(70L, JobsResource.nextBefore(new JobStore.JobPage(List.of(), 70L, 5000), 2, 5000));
        // Short page, the look reached the first job: the end.
        assertNull(JobsResource.nextBefore(new JobStore.JobPage(List.of(a), 1L, 30), 2, 5000));
        assertNull(JobsResource.nextBefore(new JobStore.JobPage(List.of(), null, 0), 2, 5000));
    }

    private static JobStore.JobSummary summary(long id) {
        return new JobStore.JobSummary(id, "k", "default", JobState.AVAILABLE, 0, 25, 2, null, null, null, null, null,
                null, false);
    }

    private static int status(ApiError e) {
        return e.status();
    }
}
