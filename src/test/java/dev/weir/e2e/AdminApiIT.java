package dev.weir.e2e;

import static dev.weir.e2e.Server.awaitState;
import static dev.weir.e2e.Server.get;
import static dev.weir.e2e.Server.job;
import static dev.weir.e2e.Server.post;
import static dev.weir.e2e.Server.submit;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The admin API of ADR 0021 against the running Liberty server. */
class AdminApiIT {

    private static String later() {
        return Instant.now().plus(Duration.ofHours(1)).toString();
    }

    private static long scheduled(String queue, String kind) {
        return submit("{\"kind\": \"" + kind + "\", \"queue\": \"" + queue + "\", \"runAt\": \"" + later() + "\"}");
    }

    private static void assertError(Server.Reply r, int status, String code) {
        assertEquals(status, r.status(), r.body());
        assertEquals(code, r.json().getString("error"), r.body());
        assertTrue(r.json().containsKey("message"), r.body());
    }

    @Test
    void theListPagesNewestFirstByIdWithFilters() {
        String kind = "it.admin.list-" + UUID.randomUUID();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(submit("{\"kind\": \"" + kind + "\"}"));   // no handler: each ends discarded
        }
        ids.forEach(id -> awaitState(id, "discarded"));
        Server.Reply first = get("/api/jobs?kind=" + kind + "&state=discarded&queue=default&limit=2");
        assertEquals(200, first.status(), first.body());
        JsonArray jobs = first.json().getJsonArray("jobs");
        assertEquals(2, jobs.size());
        JsonObject newest = jobs.getJsonObject(0);
        assertEquals(ids.get(4), newest.getJsonNumber("id").longValue());
        assertEquals(ids.get(3), jobs.getJsonObject(1).getJsonNumber("id").longValue());
        for (String field : List.of("id", "kind", "queue", "state", "attempt", "maxAttempts", "priority", "runAt",
                "createdAt", "attemptedAt", "finalizedAt", "lastError", "progress", "cancelRequested")) {
            assertTrue(newest.containsKey(field), field + " in " + newest);
        }
        assertTrue(newest.getString("lastError").contains("unknown kind"), newest.toString());
        assertFalse(newest.getBoolean("cancelRequested"));
        long next = first.json().getJsonNumber("nextBefore").longValue();
        assertEquals(ids.get(3), next);
        JsonArray second = get("/api/jobs?kind=" + kind + "&limit=2&before=" + next).json().getJsonArray("jobs");
        assertEquals(List.of(ids.get(2), ids.get(1)), List.of(second.getJsonObject(0).getJsonNumber("id").longValue(),
                second.getJsonObject(1).getJsonNumber("id").longValue()));
        // The last page: the oldest job, then nothing further.
        Server.Reply last = get("/api/jobs?kind=" + kind + "&limit=2&before=" + ids.get(1));
        assertEquals(1, last.json().getJsonArray("jobs").size());
        assertTrue(last.json().isNull("nextBefore") || last.json().getJsonNumber("nextBefore").longValue() < ids.get(0),
                last.body());
        // Without filters the newest job of all comes first, and the default page holds at most 50.
        JsonArray all = get("/api/jobs").json().getJsonArray("jobs");
        assertTrue(all.size() <= 50 && all.size() >= 5);
        assertTrue(all.getJsonObject(0).getJsonNumber("id").longValue() >= ids.get(4));
    }

    @Test
    void badListParametersAreRefusedNamingThem() {
        assertError(get("/api/jobs?state=finished"), 400, "invalid_state");
        assertError(get("/api/jobs?limit=0"), 400, "invalid_limit");
        assertError(get("/api/jobs?limit=501"), 400, "invalid_limit");
        assertError(get("/api/jobs?before=abc"), 400, "invalid_before");
        assertError(get("/api/jobs?queue=no-such-queue"), 404, "unknown_queue");
        assertError(get("/api/stats/throughput?seconds=10"), 400, "invalid_seconds");
        assertError(get("/api/stats/throughput?bucket=601"), 400, "invalid_bucket");
        assertError(get("/api/stats/throughput?queue=no-such-queue"), 404, "unknown_queue");
        assertError(post("/api/jobs/abc/retry", ""), 400, "invalid_id");
        assertError(post("/api/jobs/999999999999/retry", ""), 404, "job_not_found");
        assertError(post("/api/jobs/999999999999/cancel", ""), 404, "job_not_found");
        assertError(post("/api/jobs/999999999999/discard", ""), 404, "job_not_found");
        assertError(post("/api/jobs/retry", "{\"queue\": \"no-such-queue\"}"), 404, "unknown_queue");
        assertError(post("/api/jobs/retry", "{\"colour\": \"red\"}"), 400, "unknown_field");
        assertError(post("/api/jobs/retry", "{\"kind\": 5}"), 400, "invalid_kind");
        assertError(post("/api/jobs/retry", "[]"), 400, "invalid_request");
    }

    @Test
    void cancellingARunningJobSignalsItsHandlerAndItEndsCancelled() {
        long id = submit("{\"kind\": \"weir.await-cancel\"}");
        awaitState(id, "running");
        Server.Reply r = post("/api/jobs/" + id + "/cancel", "");
        assertEquals(200, r.status(), r.body());
        assertTrue(r.json().getBoolean("cancelRequested"), r.body());
        assertEquals("running", r.json().getString("state"), "a running job stays running until its attempt ends");
        // weir.await-cancel fails once it sees the signal; the cancel request turns that into cancelled.
        JsonObject done = awaitState(id, "cancelled");
        String errors = done.getJsonArray("errors").toString();
        assertTrue(errors.contains("cancelled by an operator") && errors.contains("saw the cancellation signal"),
                errors);
        assertFalse(done.isNull("finalizedAt"));
        assertError(post("/api/jobs/" + id + "/cancel", ""), 409, "job_finished");
        assertError(post("/api/jobs/" + id + "/discard", ""), 409, "job_finished");
    }

    @Test
    void waitingJobsAreCancelledOrDiscardedAtOnceAndRetried() {
        long cancelled = scheduled("default", "weir.noop");
        Server.Reply c = post("/api/jobs/" + cancelled + "/cancel", "");
        assertEquals(200, c.status(), c.body());
        assertEquals("cancelled", c.json().getString("state"));
        long discarded = scheduled("default", "weir.noop");
        Server.Reply d = post("/api/jobs/" + discarded + "/discard", "");
        assertEquals(200, d.status(), d.body());
        assertEquals("discarded", d.json().getString("state"));
        assertTrue(d.json().getJsonArray("errors").toString().contains("discarded by an operator"), d.body());
        // Retried, both run now.
        for (long id : new long[] {cancelled, discarded}) {
            Server.Reply r = post("/api/jobs/" + id + "/retry", "");
            assertEquals(200, r.status(), r.body());
            assertFalse(r.json().getBoolean("cancelRequested"));
            awaitState(id, "completed");
        }
        // A scheduled job retried runs now instead of in an hour.
        long waiting = scheduled("default", "weir.noop");
        assertEquals(200, post("/api/jobs/" + waiting + "/retry", "").status());
        awaitState(waiting, "completed");

        // Each action left its lifecycle line, with queue, kind, id and attempt, for an operator to grep.
        for (String line : List.of(
                "weir.job cancelled queue=default kind=weir.noop id=" + cancelled + " attempt=0 reason=\"cancelled by an operator\"",
                "weir.job discarded queue=default kind=weir.noop id=" + discarded + " attempt=0 reason=\"discarded by an operator\"",
                "weir.job operator-retry queue=default kind=weir.noop id=" + discarded + " attempt=0 from=discarded",
                "weir.job operator-retry queue=default kind=weir.noop id=" + waiting + " attempt=0 from=scheduled")) {
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(MESSAGES_LOG, StandardCharsets.UTF_8)
                    .contains(line));
        }
    }

    private static final Path MESSAGES_LOG = Path.of(System.getProperty("weir.it.server.dir"), "logs", "messages.log");

    @Test
    void aRunningJobCannotBeRetriedOrDiscarded() {
        long id = submit("{\"kind\": \"weir.await-cancel\"}");
        awaitState(id, "running");
        assertError(post("/api/jobs/" + id + "/retry", ""), 409, "job_running");
        assertError(post("/api/jobs/" + id + "/discard", ""), 409, "job_running");
        assertEquals(200, post("/api/jobs/" + id + "/cancel", "").status());
        awaitState(id, "cancelled");
    }

    @Test
    void aRetryOfAJobWithNoAttemptsLeftGrantsOneAndKeepsItsErrors() {
        long id = submit("{\"kind\": \"weir.fail\", \"args\": {\"times\": -1}, \"maxAttempts\": 1}");
        awaitState(id, "discarded");
        Server.Reply r = post("/api/jobs/" + id + "/retry", "");
        assertEquals(200, r.status(), r.body());
        assertEquals(2, r.json().getInt("maxAttempts"));
        assertEquals(1, r.json().getJsonArray("errors").size());
        await().atMost(Duration.ofSeconds(30)).until(() -> job(id).getInt("attempt") == 2
                && job(id).getString("state").equals("discarded"));
        assertEquals(2, job(id).getJsonArray("errors").size());
    }

    @Test
    void aRetryCountsAgainstAFullBoundedQueueAndCancelFreesRoom() {
        // tiny takes one outstanding job. Clear what earlier runs may have left waiting there.
        for (String state : List.of("scheduled", "available", "retryable")) {
            String before = "";
            while (true) {
                JsonObject page = get("/api/jobs?queue=tiny&limit=500&state=" + state + before).json();
                for (JsonValue j : page.getJsonArray("jobs")) {
                    post("/api/jobs/" + j.asJsonObject().getJsonNumber("id").longValue() + "/cancel", "");
                }
                if (page.isNull("nextBefore")) {
                    break;
                }
                before = "&before=" + page.getJsonNumber("nextBefore").longValue();
            }
        }
        long a = scheduled("tiny", "weir.noop");
        assertEquals(200, post("/api/jobs/" + a + "/discard", "").status(), "a discard frees the room");
        long b = scheduled("tiny", "weir.noop");
        long refusalsBefore = get("/api/queues/tiny").json().getJsonObject("admission").getJsonNumber("refusals")
                .longValue();
        Server.Reply full = post("/api/jobs/" + a + "/retry", "");
        assertEquals(429, full.status(), full.body());
        assertEquals("queue_full", full.json().getString("error"));
        assertTrue(full.raw().headers().firstValue("Retry-After").isPresent());
        assertEquals("discarded", job(a).getString("state"), "a refused retry changes nothing");
        JsonObject admission = get("/api/queues/tiny").json().getJsonObject("admission");
        assertEquals(1, admission.getInt("maxPending"));
        assertEquals(1, admission.getInt("outstanding"));
        assertEquals(refusalsBefore + 1, admission.getJsonNumber("refusals").longValue());
        assertEquals(200, post("/api/jobs/" + b + "/cancel", "").status(), "a cancel frees the room");
        Server.Reply retried = post("/api/jobs/" + a + "/retry", "");
        assertEquals(200, retried.status(), retried.body());
        awaitState(a, "completed");
    }

    @Test
    void bulkRetryMakesEveryMatchingDiscardedJobAvailable() {
        String kind = "it.admin.bulk-" + UUID.randomUUID();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(submit("{\"kind\": \"" + kind + "\", \"maxAttempts\": 1}"));
        }
        ids.forEach(id -> awaitState(id, "discarded"));
        Server.Reply r = post("/api/jobs/retry", "{\"queue\": \"default\", \"kind\": \"" + kind + "\"}");
        assertEquals(200, r.status(), r.body());
        assertEquals(3, r.json().getInt("retried"), r.body());
        // Still no handler: each runs a second attempt, granted by the retry, and is discarded again.
        for (long id : ids) {
            await().atMost(Duration.ofSeconds(30)).until(() -> job(id).getInt("attempt") == 2
                    && job(id).getString("state").equals("discarded"));
        }
        assertEquals(0, post("/api/jobs/retry", "{\"kind\": \"it.admin.none-" + UUID.randomUUID() + "\"}").json()
                .getInt("retried"));
    }

    @Test
    void throughputCountsFinishedJobsInEveryBucket() {
        long id = submit("{\"kind\": \"weir.noop\", \"queue\": \"emails\"}");
        awaitState(id, "completed");
        Server.Reply r = get("/api/stats/throughput?seconds=60&bucket=10&queue=emails");
        assertEquals(200, r.status(), r.body());
        assertEquals(10, r.json().getInt("bucketSeconds"));
        JsonArray buckets = r.json().getJsonArray("buckets");
        assertEquals(6, buckets.size());
        long completed = 0;
        Instant previous = null;
        for (JsonValue v : buckets) {
            JsonObject b = v.asJsonObject();
            Instant at = Instant.parse(b.getString("at"));
            assertTrue(previous == null || at.equals(previous.plusSeconds(10)), r.body());
            previous = at;
            completed += b.getJsonNumber("completed").longValue();
            assertTrue(b.containsKey("discarded") && b.containsKey("cancelled"));
        }
        assertTrue(completed >= 1, r.body());
        assertEquals(60, get("/api/stats/throughput").json().getJsonArray("buckets").size());
    }

    @Test
    void queuesShowTheirRateLimitOnThisInstance() {
        JsonObject emails = get("/api/queues/emails").json();
        JsonObject rate = emails.getJsonObject("rateLimit");
        assertEquals(1000.0, rate.getJsonNumber("rate").doubleValue());
        assertEquals(1000, rate.getInt("burst"));
        int tokens = rate.getInt("tokens");
        assertTrue(tokens >= 0 && tokens <= 1000, emails.toString());
        assertTrue(get("/api/queues/default").json().isNull("rateLimit"));
        assertTrue(get("/api/queues/default").json().isNull("admission"));
    }

    @Test
    void operatorActionsNeedTheAdminRoleAndReadsAnyRole() {
        long id = scheduled("default", "weir.noop");
        for (TestUser user : new TestUser[] {TestUser.VIEWER, TestUser.SUBMITTER}) {
            assertEquals(200, get("/api/jobs?limit=1", user).status(), user.name());
            assertEquals(200, get("/api/stats/throughput", user).status(), user.name());
            for (String action : List.of("retry", "cancel", "discard")) {
                assertEquals(403, post("/api/jobs/" + id + "/" + action, "", user).status(), user + " " + action);
            }
            assertEquals(403, post("/api/jobs/retry", "{}", user).status(), user.name());
        }
        assertEquals("scheduled", job(id).getString("state"), "nothing changed");
        assertEquals(200, post("/api/jobs/" + id + "/cancel", "").status());
    }
}
