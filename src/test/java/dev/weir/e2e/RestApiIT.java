package dev.weir.e2e;

import static dev.weir.e2e.Server.awaitState;
import static dev.weir.e2e.Server.get;
import static dev.weir.e2e.Server.job;
import static dev.weir.e2e.Server.post;
import static dev.weir.e2e.Server.send;
import static dev.weir.e2e.Server.submit;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The REST API of DESIGN §5 against the running Liberty server. */
class RestApiIT {

    @Test
    void aSubmittedJobRunsToCompletion() {
        Server.Reply r = post("/api/jobs", "{\"kind\": \"weir.noop\", \"priority\": 1}");
        assertEquals(201, r.status(), r.body());
        long id = r.json().getJsonNumber("id").longValue();
        assertEquals("available", r.json().getString("state"));
        String location = r.raw().headers().firstValue("Location").orElse("");
        assertTrue(location.endsWith("/api/jobs/" + id) && !location.contains("/api/api/"), location);
        JsonObject done = awaitState(id, "completed");
        assertEquals("weir.noop", done.getString("kind"));
        assertEquals("default", done.getString("queue"));
        assertEquals(1, done.getInt("attempt"));
        assertEquals(1, done.getInt("priority"));
        assertEquals(25, done.getInt("maxAttempts"));
        assertTrue(!done.isNull("finalizedAt") && !done.isNull("attemptedAt") && !done.isNull("createdAt"));
        assertEquals(0, done.getJsonArray("errors").size());
        assertTrue(done.containsKey("progress") && done.isNull("progress"), "no progress recorded: " + done);
    }

    @Test
    void aJobStartsAtOnceOnAQueueThatPollsRarely() {
        // The emails queue polls every 30 s on the test server: only the wake-up after the commit can be this quick.
        long id = submit("{\"kind\": \"weir.noop\", \"queue\": \"emails\"}");
        await().atMost(Duration.ofSeconds(10)).until(() -> job(id).getString("state").equals("completed"));
    }

    /** A handler runs with the application's class loader and naming context (ADR 0029). */
    @Test
    void aJobRunsWithTheApplicationsClassLoaderAndNamingContext() {
        long id = submit("{\"kind\": \"weir.context\"}");
        // Any end, not only completed: a discarded job's errors say what its thread lacked.
        JsonObject done = await().atMost(Duration.ofSeconds(30))
                .until(() -> job(id), j -> !Set.of("available", "running").contains(j.getString("state")));
        assertEquals("completed", done.getString("state"), "the job's errors say what its thread lacked: " + done);
    }

    @Test
    void aFailingJobRetriesAndKeepsItsErrorHistory() {
        long id = submit("{\"kind\": \"weir.fail\", \"args\": {\"times\": 1}}");
        JsonObject done = awaitState(id, "completed");
        assertEquals(2, done.getInt("attempt"));
        JsonArray errors = done.getJsonArray("errors");
        assertEquals(1, errors.size());
        assertEquals(1, errors.getJsonObject(0).getInt("attempt"));
        assertTrue(errors.getJsonObject(0).getString("error").contains("failing attempt 1"));
    }

    @Test
    void aJobThatAlwaysFailsEndsDiscarded() {
        long id = submit("{\"kind\": \"weir.fail\", \"args\": {\"times\": -1}, \"maxAttempts\": 1}");
        JsonObject done = awaitState(id, "discarded");
        assertEquals(1, done.getJsonArray("errors").size());
    }

    @Test
    void anUnknownKindEndsDiscardedWithTheReason() {
        long id = submit("{\"kind\": \"no.such.kind\", \"args\": {\"x\": 1}}");
        JsonObject done = awaitState(id, "discarded");
        assertTrue(done.getJsonArray("errors").getJsonObject(0).getString("error").contains("unknown kind"));
    }

    @Test
    void aFutureRunAtIsScheduled() {
        String runAt = Instant.now().plus(Duration.ofHours(1)).toString();
        Server.Reply r = post("/api/jobs", "{\"kind\": \"weir.noop\", \"runAt\": \"" + runAt + "\"}");
        assertEquals(201, r.status(), r.body());
        assertEquals("scheduled", r.json().getString("state"));
        long id = r.json().getJsonNumber("id").longValue();
        assertEquals("scheduled", job(id).getString("state"));
    }

    @Test
    void aUniqueJobIsSubmittedOnceAndTheDuplicateAnswersTheExistingOne() {
        String runAt = Instant.now().plus(Duration.ofDays(1)).toString();
        // The server's database outlives a test run: a fresh user makes this run's key new.
        String user = "ana-" + java.util.UUID.randomUUID();
        String job = "{\"kind\": \"weir.noop\", \"runAt\": \"" + runAt + "\", \"args\": {\"report\": 7, \"user\": \"" + user + "\"},"
                + " \"unique\": {\"byArgs\": true, \"period\": \"PT1H\"}}";
        Server.Reply first = post("/api/jobs", job);
        assertEquals(201, first.status());
        // The same arguments in another order and spacing are the same job.
        Server.Reply again = post("/api/jobs", job.replace("{\"report\": 7, \"user\": \"" + user + "\"}",
                "{\"user\":\"" + user + "\",\"report\":7}"));
        assertEquals(200, again.status());
        assertEquals(first.json().getJsonNumber("id").longValue(), again.json().getJsonNumber("id").longValue());
        assertTrue(again.json().getBoolean("duplicate"));
        assertEquals("scheduled", again.json().getString("state"));
        Server.Reply other = post("/api/jobs", job.replace("\"report\": 7", "\"report\": 8"));
        assertEquals(201, other.status());
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"unique\": {\"byArgs\": true, "
                + "\"states\": [\"available\"]}}"), 400, "invalid_unique");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"unique\": {\"byKind\": true}}"), 400,
                "invalid_unique");
    }

    @Test
    void aBatchMixesUniqueAndPlainJobsAndNamesTheDuplicates() {
        String runAt = Instant.now().plus(Duration.ofDays(1)).toString();
        String user = "bo-" + java.util.UUID.randomUUID();
        String unique = "{\"kind\": \"weir.noop\", \"runAt\": \"" + runAt + "\", \"args\": {\"user\": \"" + user + "\"},"
                + " \"unique\": {\"byArgs\": true}}";
        String plain = "{\"kind\": \"weir.noop\", \"runAt\": \"" + runAt + "\"}";
        Server.Reply first = post("/api/jobs/batch", "[" + unique + "," + plain + "," + unique + "]");
        assertEquals(201, first.status(), first.body());
        List<Long> ids = first.json().getJsonArray("ids").getValuesAs(JsonNumber::longValue);
        assertEquals(3, ids.size());
        assertEquals(ids.get(0), ids.get(2), "the same unique job twice in one batch is one job");
        assertNotEquals(ids.get(0), ids.get(1));
        assertEquals(List.of(ids.get(0)), first.json().getJsonArray("duplicates").getValuesAs(JsonNumber::longValue));

        Server.Reply again = post("/api/jobs/batch", "[" + plain + "," + unique + "]");
        assertEquals(201, again.status(), again.body());
        List<Long> later = again.json().getJsonArray("ids").getValuesAs(JsonNumber::longValue);
        assertTrue(later.get(0) > ids.get(2), "the plain job is new");
        assertEquals(ids.get(0), later.get(1), "the unique job answers the existing one");
        assertEquals("scheduled", job(later.get(1)).getString("state"));
        assertFalse(post("/api/jobs/batch", "[" + plain + "]").json().containsKey("duplicates"));
    }

    @Test
    void concurrentSubmissionsShareCommitsYetEachGetsItsOwnJob() throws Exception {
        // Submissions outside a transaction from many threads at once share transactions (ADR 0030): each answer must
        // still name the job its own request stored, and a unique job stays one job across the groups.
        String runAt = Instant.now().plus(Duration.ofDays(1)).toString();
        String user = "group-" + java.util.UUID.randomUUID();
        String unique = "{\"kind\": \"weir.noop\", \"runAt\": \"" + runAt + "\", \"args\": {\"user\": \"" + user
                + "\"}, \"unique\": {\"byArgs\": true}}";
        ExecutorService clients = Executors.newFixedThreadPool(16);
        try {
            List<Future<Map<String, Long>>> threads = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                int thread = t;
                threads.add(clients.submit(() -> {
                    Map<String, Long> ids = new LinkedHashMap<>();
                    for (int n = 0; n < 10; n++) {
                        String tag = user + "-" + thread + "-" + n;
                        ids.put(tag, submit("{\"kind\": \"weir.noop\", \"runAt\": \"" + runAt
                                + "\", \"args\": {\"tag\": \"" + tag + "\"}}"));
                        Server.Reply again = post("/api/jobs", unique);
                        assertTrue(again.status() == 201 || again.status() == 200, again.body());
                        ids.put("unique-" + thread + "-" + n, again.json().getJsonNumber("id").longValue());
                    }
                    return ids;
                }));
            }
            Map<String, Long> all = new HashMap<>();
            for (Future<Map<String, Long>> f : threads) {
                all.putAll(f.get(120, TimeUnit.SECONDS));
            }
            Set<Long> uniqueIds = new HashSet<>();
            Set<Long> plainIds = new HashSet<>();
            for (Map.Entry<String, Long> e : all.entrySet()) {
                if (e.getKey().startsWith("unique-")) {
                    uniqueIds.add(e.getValue());
                } else {
                    assertTrue(plainIds.add(e.getValue()), "two submissions answered job " + e.getValue());
                    assertEquals(e.getKey(), job(e.getValue()).getJsonObject("args").getString("tag"),
                            "job " + e.getValue() + " holds what its own request submitted");
                }
            }
            assertEquals(160, plainIds.size());
            assertEquals(1, uniqueIds.size(), "160 submissions of one unique job are one job: " + uniqueIds);
            assertFalse(plainIds.containsAll(uniqueIds));
        } finally {
            clients.shutdownNow();
        }
    }

    @Test
    void periodicJobsAreListedPausedResumedAndRunNow() {
        Server.Reply all = get("/api/periodic");
        assertEquals(200, all.status(), all.body());
        JsonArray periodic = Json.createReader(new java.io.StringReader(all.body())).readArray();
        assertEquals(1, periodic.size(), all.body());
        JsonObject listed = periodic.getJsonObject(0);
        assertEquals("new-year", listed.getString("name"));
        assertEquals("0 0 1 1 *", listed.getString("schedule"));
        assertEquals("Europe/Paris", listed.getString("timeZone"));
        assertTrue(listed.getString("nextFireAt").endsWith("-01-01T00:00:00Z")
                || listed.getString("nextFireAt").endsWith("-12-31T23:00:00Z"), listed.getString("nextFireAt"));
        assertEquals(false, listed.getBoolean("paused"));

        assertEquals(204, post("/api/periodic/new-year/pause", "").status());
        assertTrue(get("/api/periodic/new-year").json().getBoolean("paused"));
        Server.Reply run = post("/api/periodic/new-year/run", "");
        assertEquals(201, run.status(), run.body());
        awaitState(run.json().getJsonNumber("id").longValue(), "completed");
        assertTrue(!get("/api/periodic/new-year").json().isNull("lastFireAt"));
        assertEquals(204, post("/api/periodic/new-year/resume", "").status());
        assertEquals(false, get("/api/periodic/new-year").json().getBoolean("paused"));
        assertError(post("/api/periodic/nope/run", ""), 404, "unknown_periodic_job");
    }

    @Test
    void aBatchIsStoredWholeInOrder() {
        Server.Reply r = post("/api/jobs/batch",
                "[{\"kind\": \"weir.noop\"}, {\"kind\": \"weir.sleep\", \"args\": {\"ms\": 5}}, {\"kind\": \"weir.noop\", \"queue\": \"emails\"}]");
        assertEquals(201, r.status(), r.body());
        JsonArray ids = r.json().getJsonArray("ids");
        assertEquals(3, ids.size());
        assertTrue(ids.getJsonNumber(0).longValue() < ids.getJsonNumber(1).longValue());
        for (JsonValue id : ids) {
            awaitState(((jakarta.json.JsonNumber) id).longValue(), "completed");
        }
        assertEquals("emails", job(ids.getJsonNumber(2).longValue()).getString("queue"));
    }

    @Test
    void aBatchWithOneBadJobStoresNothing() {
        long before = totalJobs();
        Server.Reply r = post("/api/jobs/batch", "[{\"kind\": \"weir.noop\"}, {\"kind\": \"weir.noop\", \"priority\": 7}]");
        assertEquals(400, r.status(), r.body());
        assertEquals("invalid_priority", r.json().getString("error"));
        assertTrue(r.json().getString("message").contains("job [1]") || r.json().getString("message").contains("priority"));
        assertEquals(before, totalJobs());
    }

    @Test
    void badRequestsAreRefusedWithACodeAndAReason() {
        assertError(post("/api/jobs", "{\"queue\": \"default\"}"), 400, "invalid_kind");
        assertError(post("/api/jobs", "{\"kind\": \"\"}"), 400, "invalid_kind");
        assertError(post("/api/jobs", "{\"kind\": 12}"), 400, "invalid_kind");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"priority\": 0}"), 400, "invalid_priority");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"priority\": 1.5}"), 400, "invalid_priority");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"maxAttempts\": 0}"), 400, "invalid_max_attempts");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"args\": [1, 2]}"), 400, "invalid_args");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"runAt\": \"tomorrow\"}"), 400, "invalid_run_at");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"runAt\": \"9999-01-01T00:00:00Z\"}"), 400,
                "invalid_run_at");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"colour\": \"red\"}"), 400, "unknown_field");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"queue\": \"nope\"}"), 404, "unknown_queue");
        assertError(post("/api/jobs", "{\"kind\": "), 400, "malformed_json");
        assertError(post("/api/jobs", "[]"), 400, "invalid_request");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\"}", "text/plain"), 415, "unsupported_media_type");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"args\": {\"s\": \"" + "x".repeat(400_000) + "\"}}"),
                413, "payload_too_large");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"args\": {\"s\": \"" + "x".repeat(262_200) + "\"}}"),
                413, "args_too_large");
        assertError(post("/api/jobs/batch", "[]"), 400, "invalid_request");
        assertError(post("/api/jobs/batch", "[" + "{\"kind\": \"weir.noop\"},".repeat(1000) + "{\"kind\": \"weir.noop\"}]"),
                413, "batch_too_large");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"args\": {\"s\": \"a\\u0000b\"}}"), 400,
                "invalid_args");
        assertError(get("/api/jobs/12abc"), 400, "invalid_id");
        assertError(get("/api/jobs/999999999"), 404, "job_not_found");
        // The server keeps serving after all of that.
        awaitState(submit("{\"kind\": \"weir.noop\"}"), "completed");
    }

    @Test
    void aSubmissionWithABrowsersAcceptAndACharsetIsAnsweredAsJson() {
        Server.Reply r = send(HttpRequest.newBuilder(URI.create(Server.BASE + "/api/jobs"))
                .header("Accept", "text/html, application/json;q=0.9, */*;q=0.1")
                .header("Content-Type", "application/json; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString("{\"kind\": \"weir.noop\", \"args\": {\"s\": \"ünï 日本\"}}",
                        StandardCharsets.UTF_8)));
        assertEquals(201, r.status(), r.body());
        assertEquals("application/json", r.raw().headers().firstValue("Content-Type").orElse("").split(";")[0]);
        long id = r.json().getJsonNumber("id").longValue();
        assertEquals(Server.BASE + "/api/jobs/" + id, r.raw().headers().firstValue("Location").orElse(""));
        assertEquals("ünï 日本", awaitState(id, "completed").getJsonObject("args").getString("s"));
        Server.Reply batch = send(HttpRequest.newBuilder(URI.create(Server.BASE + "/api/jobs/batch"))
                .header("Accept", "application/*").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("[{\"kind\": \"weir.noop\"}, {\"kind\": \"weir.noop\"}]")));
        assertEquals(201, batch.status(), batch.body());
        assertEquals(2, batch.json().getJsonArray("ids").size());
        assertTrue(batch.raw().headers().firstValue("Location").isEmpty());
    }

    @Test
    void unicodeAndSqlMetacharactersSurviveTheRoundTrip() {
        String kind = "kind'; DROP TABLE weir.jobs; -- ✓ \\\" ünï";
        long id = submit("{\"kind\": \"" + kind + "\", \"args\": {\"s\": \"'); DELETE FROM weir.jobs; -- 日本\"}}");
        JsonObject view = awaitState(id, "discarded");
        assertEquals("kind'; DROP TABLE weir.jobs; -- ✓ \" ünï", view.getString("kind"));
        assertEquals("'); DELETE FROM weir.jobs; -- 日本", view.getJsonObject("args").getString("s"));
    }

    @Test
    void moreBadInputIsRefusedWithACodeAndNothingIsStored() {
        long before = totalJobs();
        String meta = "'; DROP TABLE weir.jobs; -- ✓ ünï 日本 \\\" %_";
        // Wrong or missing content type, wrong method, wrong Accept.
        assertError(post("/api/jobs", "<job kind=\"weir.noop\"/>", "application/xml"), 415, "unsupported_media_type");
        assertError(send(HttpRequest.newBuilder(URI.create(Server.BASE + "/api/jobs"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"kind\": \"weir.noop\"}"))), 415, "unsupported_media_type");
        assertError(post("/api/jobs/batch", "[{\"kind\": \"weir.noop\"}]", "text/plain"), 415,
                "unsupported_media_type");
        assertError(send(HttpRequest.newBuilder(URI.create(Server.BASE + "/api/jobs")).DELETE()), 405,
                "method_not_allowed");
        assertError(send(HttpRequest.newBuilder(URI.create(Server.BASE + "/api/queues")).header("Accept", "text/csv")
                .GET()), 406, "not_acceptable");
        // Submissions are answered outside JAX-RS (ADR 0044); what they cannot plainly answer still gets its 4xx.
        assertError(send(HttpRequest.newBuilder(URI.create(Server.BASE + "/api/jobs")).header("Accept", "text/csv")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"kind\": \"weir.noop\"}"))), 406, "not_acceptable");
        // No body, JSON null, a bare string, a batch that is an object or holds a non-object.
        assertError(post("/api/jobs", ""), 400, "invalid_request");
        assertError(post("/api/jobs", "null"), 400, "invalid_request");
        assertError(post("/api/jobs", "\"weir.noop\""), 400, "invalid_request");
        assertError(post("/api/jobs/batch", "{\"kind\": \"weir.noop\"}"), 400, "invalid_request");
        assertError(post("/api/jobs/batch", "[{\"kind\": \"weir.noop\"}, 7]"), 400, "invalid_request");
        assertError(post("/api/jobs/batch", "[{\"kind\": \"weir.noop\"},"), 400, "malformed_json");
        // Unicode and SQL metacharacters in every string field that has a rule.
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"queue\": \"" + meta + "\"}"), 404, "unknown_queue");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"runAt\": \"" + meta + "\"}"), 400, "invalid_run_at");
        assertError(post("/api/jobs", "{\"kind\": \"" + "ü".repeat(201) + "\"}"), 400, "invalid_kind");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"" + meta + "\": 1}"), 400, "unknown_field");
        assertError(get("/api/queues/x'%3B%20DROP%20TABLE%20weir.jobs"), 404, "unknown_queue");
        assertError(post("/api/queues/%C3%BC'--/pause", ""), 404, "unknown_queue");
        assertError(get("/api/jobs/1%20OR%201=1"), 400, "invalid_id");
        assertError(get("/api/jobs/-1"), 404, "job_not_found");
        // Run-at far in the past or the future (more than 3650 days away), and without an offset.
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"runAt\": \"1900-01-01T00:00:00Z\"}"), 400,
                "invalid_run_at");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"runAt\": \"2999-01-01T00:00:00Z\"}"), 400,
                "invalid_run_at");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"runAt\": \"2030-01-01T00:00:00\"}"), 400,
                "invalid_run_at");
        // Numbers out of range or of the wrong type.
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"priority\": 5}"), 400, "invalid_priority");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"maxAttempts\": 1e99}"), 400,
                "invalid_max_attempts");
        assertError(post("/api/jobs", "{\"kind\": \"weir.noop\", \"maxAttempts\": \"3\"}"), 400,
                "invalid_max_attempts");
        // A huge batch is refused before a row is written, whatever its jobs look like.
        assertError(post("/api/jobs/batch", "[" + "{\"kind\": \"weir.noop\"},".repeat(20_000)
                + "{\"kind\": \"weir.noop\"}]"), 413, "batch_too_large");
        assertEquals(before, totalJobs(), "nothing of any refused submission was stored");
        // The server keeps serving.
        awaitState(submit("{\"kind\": \"weir.noop\"}"), "completed");
    }

    @Test
    void aRunAtInThePastWithinTheWindowRunsAtOnce() {
        // A run-at in the past (within the window) means now.
        long past = submit("{\"kind\": \"weir.noop\", \"runAt\": \"2020-01-01T00:00:00+02:00\"}");
        awaitState(past, "completed");
    }

    @Test
    void argsTheHandlerCannotDecodeEndDiscardedWithTheReason() {
        long id = submit("{\"kind\": \"weir.sleep\", \"args\": {\"ms\": \"a while\"}}");
        JsonObject view = awaitState(id, "discarded");
        assertTrue(view.getJsonArray("errors").getJsonObject(0).getString("error").contains("args"),
                view.toString());
    }

    @Test
    void queuesShowCountsAndCapacity() {
        Server.Reply list = get("/api/queues");
        assertEquals(200, list.status(), list.body());
        JsonArray queues = (JsonArray) list.structure();
        assertEquals(4, queues.size());
        JsonObject emails = queues.getJsonObject(1);
        assertEquals("emails", emails.getString("name"));
        JsonObject capacity = emails.getJsonObject("capacity");
        assertEquals("hard-reserved", capacity.getString("mode"));
        assertEquals(4, capacity.getInt("maxWorkers"));
        assertTrue(capacity.getInt("inFlight") >= 0);
        for (String state : new String[] {"scheduled", "available", "running", "retryable", "completed", "discarded",
                "cancelled"}) {
            assertTrue(emails.getJsonObject("counts").containsKey(state), state);
        }
        assertTrue(emails.isNull("admission"), "an unbounded queue has no admission");
        assertEquals(100, get("/api/queues/default").json().getJsonObject("capacity").getInt("maxWorkers"));
        assertError(get("/api/queues/nope"), 404, "unknown_queue");
    }

    @Test
    void aPausedQueueRunsNothingUntilResumed() {
        assertEquals(204, post("/api/queues/emails/pause", "").status());
        assertTrue(get("/api/queues/emails").json().getBoolean("paused"));
        try {
            long held = submit("{\"kind\": \"weir.noop\", \"queue\": \"emails\"}");
            // A job on another queue submitted after it and completed proves that dispatching went on meanwhile,
            // with time for the emails job to have run had the pause let it.
            awaitState(submit("{\"kind\": \"weir.sleep\", \"args\": {\"ms\": 1200}}"), "completed");
            assertEquals("available", job(held).getString("state"));
            assertEquals(204, post("/api/queues/emails/resume", "").status());
            awaitState(held, "completed");
        } finally {
            post("/api/queues/emails/resume", "");
        }
        assertError(post("/api/queues/nope/pause", ""), 404, "unknown_queue");
    }

    @Test
    void aJobSubmittedInATransactionExistsOnlyIfItCommits() {
        Server.Reply rolledBack = post("/api/diagnostics/transactional-submit",
                "{\"job\": {\"kind\": \"weir.noop\"}, \"rollback\": true}");
        assertEquals(200, rolledBack.status(), rolledBack.body());
        long gone = rolledBack.json().getJsonNumber("id").longValue();
        Server.Reply committed = post("/api/diagnostics/transactional-submit",
                "{\"job\": {\"kind\": \"weir.noop\"}, \"rollback\": false}");
        long kept = committed.json().getJsonNumber("id").longValue();
        awaitState(kept, "completed");
        assertEquals(404, get("/api/jobs/" + gone).status(), "a rolled-back submission leaves nothing");
    }

    @Test
    void theServersOwnThreadsSubmitThroughJobSubmitterForTheBenchmark() {
        long before = totalJobs();
        JsonObject groupsBefore = get("/api/diagnostics/group-commits").json();
        Server.Reply r = post("/api/diagnostics/submit-load",
                "{\"job\": {\"kind\": \"weir.noop\"}, \"threads\": 2, \"batch\": 3, \"seconds\": 1}");
        JsonObject groupsAfter = get("/api/diagnostics/group-commits").json();
        assertEquals(200, r.status(), r.body());
        JsonObject load = r.json();
        long jobs = load.getJsonNumber("jobs").longValue();
        assertEquals(0, load.getJsonNumber("errors").longValue(), r.body());
        assertTrue(jobs > 0, r.body());
        assertEquals(3 * load.getJsonNumber("calls").longValue(), jobs, "each call submitted a batch of 3");
        long groups = load.getJsonNumber("groupCommits").longValue();
        assertTrue(groups > 0 && groups <= load.getJsonNumber("calls").longValue(), r.body());
        // The running count counts the same groups, and any other test's beside them.
        long counted = groupsAfter.getJsonNumber("groups").longValue()
                - groupsBefore.getJsonNumber("groups").longValue();
        long held = groupsAfter.getJsonNumber("requests").longValue()
                - groupsBefore.getJsonNumber("requests").longValue();
        assertTrue(counted >= groups, "group-commits counted " + counted + " groups, submit-load " + groups);
        assertTrue(held >= load.getJsonNumber("calls").longValue() && held >= counted,
                "group-commits counted " + held + " submissions in " + counted + " groups; " + r.body());
        assertTrue(load.getJsonNumber("seconds").doubleValue() >= 1, r.body());
        assertTrue(totalJobs() - before >= jobs, "the jobs it counted are stored");
        assertError(post("/api/diagnostics/submit-load", "{\"job\": {\"kind\": \"weir.noop\"}, \"threads\": 0}"),
                400, "invalid_threads");
        assertError(post("/api/diagnostics/submit-load", "{\"job\": {\"kind\": \"weir.noop\"}, \"batch\": 1001}"),
                400, "invalid_batch");
        assertError(post("/api/diagnostics/submit-load", "[]"), 400, "invalid_request");
        assertError(post("/api/diagnostics/submit-load", "{\"job\": {\"kind\": \"weir.noop\", \"queue\": \"nope\"},"
                + " \"seconds\": 1}"), 404, "unknown_queue");
    }

    private static long totalJobs() {
        long total = 0;
        for (JsonValue q : (JsonArray) get("/api/queues").structure()) {
            for (JsonValue n : q.asJsonObject().getJsonObject("counts").values()) {
                total += ((jakarta.json.JsonNumber) n).longValue();
            }
        }
        return total;
    }

    private static void assertError(Server.Reply r, int status, String code) {
        assertEquals(status, r.status(), r.body());
        assertEquals(code, r.json().getString("error"), r.body());
        assertTrue(!r.json().getString("message").isBlank(), r.body());
    }
}
