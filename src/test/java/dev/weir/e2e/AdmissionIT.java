package dev.weir.e2e;

import static dev.weir.e2e.Server.get;
import static dev.weir.e2e.Server.post;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Elastic admission end to end (DESIGN §2 invariant 6, §3.3): the test server and a second instance from the runnable
 * jar share the test server's database, both with {@code bounded} at max-pending 50, and take submissions from 32
 * threads each while their workers drain the queue.
 */
class AdmissionIT {

    /** The test server's embedded PostgreSQL (WEIR_EMBEDDED_DB_PORT in src/test/liberty/server.env). */
    private static final String DB_URL = "jdbc:postgresql://127.0.0.1:19180/postgres";
    private static final int SECOND_HTTP_PORT = 9480;
    private static final String OUTSTANDING = "SELECT count(*) FROM weir.jobs WHERE queue = 'bounded' AND state IN "
            + "('scheduled', 'available', 'running', 'retryable')";

    private static long outstandingInDatabase(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(OUTSTANDING)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static JsonObject json(String body) {
        try (JsonReader r = Json.createReader(new StringReader(body))) {
            return r.readObject();
        }
    }

    private static JsonObject queuesHealth(String base, HttpClient http) throws Exception {
        String body = http.send(HttpRequest.newBuilder(URI.create(base + "/health/ready")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (JsonValue c : json(body).getJsonArray("checks")) {
            if (c.asJsonObject().getString("name").equals("weir-queues")) {
                return c.asJsonObject().getJsonObject("data");
            }
        }
        throw new AssertionError("no weir-queues check in " + body);
    }

    /** What one submitting thread saw. */
    private record Tally(AtomicLong admitted, AtomicLong refused, ConcurrentLinkedQueue<String> problems) {
        Tally() {
            this(new AtomicLong(), new AtomicLong(), new ConcurrentLinkedQueue<>());
        }
    }

    private static void submitUntil(String base, HttpClient http, int thread, AtomicBoolean stop, Tally tally) {
        boolean batch = thread % 4 == 0;
        String job = "{\"kind\": \"weir.sleep\", \"args\": {\"ms\": 200}, \"queue\": \"bounded\"}";
        String path = batch ? "/api/jobs/batch" : "/api/jobs";
        String body = batch ? "[" + job + "," + job + "," + job + "]" : job;
        int size = batch ? 3 : 1;
        while (!stop.get()) {
            HttpResponse<String> r;
            try {
                r = http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                        .header("Authorization", TestUser.SUBMITTER.authorization())
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(), HttpResponse.BodyHandlers.ofString());
            } catch (Exception e) {
                tally.problems().add(base + ": " + e);
                return;
            }
            if (r.statusCode() == 201) {
                tally.admitted().addAndGet(size);
            } else if (r.statusCode() == 429) {
                tally.refused().incrementAndGet();
                JsonObject refusal = json(r.body());
                String retryAfter = r.headers().firstValue("Retry-After").orElse("");
                if (!retryAfter.matches("[1-9][0-9]*") || !refusal.getString("error").equals("queue_full")
                        || !refusal.getString("queue").equals("bounded") || refusal.getInt("limit") != 50
                        || refusal.getJsonNumber("outstanding").longValue() > 50 || !refusal.containsKey("message")) {
                    tally.problems().add("429 with Retry-After '" + retryAfter + "': " + r.body());
                }
            } else {
                tally.problems().add(base + ": " + r.statusCode() + " " + r.body());
            }
        }
    }

    @Test
    void twoInstancesAndSixtyFourSubmittersNeverExceedTheBound() throws Exception {
        Map<String, String> env = Map.of(
                "WEIR_DB_URL", DB_URL,
                "WEIR_DB_USER", "postgres",
                "WEIR_QUEUES", "bounded",
                "WEIR_QUEUE_BOUNDED_MAX_PENDING", "50",
                "WEIR_QUEUE_BOUNDED_MAX_WORKERS", "8",
                "WEIR_HEARTBEAT_INTERVAL", "PT1S",
                "WEIR_RESCUE_AFTER", "PT5S",
                "WEIR_DIAGNOSTICS_ENABLED", "true",
                // Two instances' pools and session connections must fit the test database's 100 connections.
                "WEIR_DB_POOL_SIZE", "30");
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try (ServerProcess second = ServerProcess.start(SECOND_HTTP_PORT, env);
                Connection db = DriverManager.getConnection(DB_URL, "postgres", "")) {
            try {
                await().atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(500))
                        .until(() -> second.status("/health/ready") == 200);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                String log = second.log();
                throw new AssertionError("the second instance did not become ready; its log ends:\n"
                        + log.substring(Math.max(0, log.length() - 4000)), e);
            }
            List<String> bases = List.of(Server.BASE, second.base());
            for (String base : bases) {
                assertEquals(50, queuesHealth(base, http).getInt("bounded.max-pending"), base);
            }

            AtomicBoolean stop = new AtomicBoolean();
            List<Tally> tallies = List.of(new Tally(), new Tally());
            ExecutorService pool = Executors.newFixedThreadPool(64);
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                String base = bases.get(i);
                Tally tally = tallies.get(i);
                for (int t = 0; t < 32; t++) {
                    int thread = t;
                    futures.add(pool.submit(() -> submitUntil(base, http, thread, stop, tally)));
                }
            }
            // Sample the database the whole time the submitters run: at least 4 s, and on until the queue has been
            // full at least once (a cold instance answers its first requests slowly), for at most 60 s.
            long max = 0;
            long samples = 0;
            long began = System.nanoTime();
            while (System.nanoTime() - began < TimeUnit.SECONDS.toNanos(4)
                    || (tallies.get(0).refused().get() + tallies.get(1).refused().get() == 0
                            && System.nanoTime() - began < TimeUnit.SECONDS.toNanos(60))) {
                max = Math.max(max, outstandingInDatabase(db));
                samples++;
            }
            stop.set(true);
            for (Future<?> f : futures) {
                f.get(90, TimeUnit.SECONDS);
            }
            pool.shutdown();
            max = Math.max(max, outstandingInDatabase(db));

            for (Tally t : tallies) {
                assertTrue(t.problems().isEmpty(), "unexpected answers: " + t.problems());
            }
            assertTrue(max <= 50, "outstanding reached " + max + " > max-pending 50");
            assertTrue(samples >= 20, "sampled " + samples + " times");
            long admitted = tallies.get(0).admitted().get() + tallies.get(1).admitted().get();
            // More than the bound admitted in all: jobs finished and their room was taken again.
            assertTrue(admitted > 50, "room came back as workers drained: " + admitted + " admitted");
            assertTrue(tallies.get(0).admitted().get() > 0 && tallies.get(1).admitted().get() > 0,
                    "both instances admitted work");
            assertTrue(tallies.get(0).refused().get() + tallies.get(1).refused().get() > 0, "the queue was full at times");

            // Visible: the queue's admission on the REST API and in health, refusals counted per instance.
            JsonObject admission = get("/api/queues/bounded").json().getJsonObject("admission");
            assertEquals(50, admission.getInt("maxPending"));
            assertTrue(admission.getJsonNumber("outstanding").longValue() <= 50, admission.toString());
            assertEquals(tallies.get(0).refused().get(), admission.getJsonNumber("refused").longValue());
            JsonObject health = queuesHealth(second.base(), http);
            assertEquals(tallies.get(1).refused().get(), health.getJsonNumber("bounded.refused").longValue());
            assertTrue(health.getJsonNumber("bounded.outstanding").longValue() <= 50, health.toString());

            await().atMost(Duration.ofSeconds(60)).until(() -> outstandingInDatabase(db) == 0);
            assertEquals(0, get("/api/queues/bounded").json().getJsonObject("admission").getInt("outstanding"));
        }
    }

    @Test
    void aBurstOfSingleSubmissionsFillsAPausedBoundedQueueExactly() throws Exception {
        // Concurrent single submissions share group commits (ADR 0030), and each is admitted on its own, all or
        // nothing, inside its group's transaction: however the burst falls into groups, exactly max-pending of them
        // get in and every other one is refused.
        assertEquals(204, post("/api/queues/bounded/pause", "").status());
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        int submitters = 80;
        ExecutorService pool = Executors.newFixedThreadPool(submitters);
        try (Connection db = DriverManager.getConnection(DB_URL, "postgres", "")) {
            await().atMost(Duration.ofSeconds(60)).until(() -> outstandingInDatabase(db) == 0);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> statuses = new ArrayList<>();
            String job = "{\"kind\": \"weir.noop\", \"queue\": \"bounded\"}";
            for (int i = 0; i < submitters; i++) {
                statuses.add(pool.submit(() -> {
                    go.await();
                    return http.send(HttpRequest.newBuilder(URI.create(Server.BASE + "/api/jobs"))
                            .timeout(Duration.ofSeconds(60))
                            .header("Authorization", TestUser.SUBMITTER.authorization())
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(job)).build(),
                            HttpResponse.BodyHandlers.ofString()).statusCode();
                }));
            }
            go.countDown();
            int admitted = 0;
            int refused = 0;
            for (Future<Integer> f : statuses) {
                int status = f.get(90, TimeUnit.SECONDS);
                if (status == 201) {
                    admitted++;
                } else if (status == 429) {
                    refused++;
                } else {
                    throw new AssertionError("unexpected status " + status);
                }
            }
            assertEquals(50, admitted, "admitted (refused " + refused + ")");
            assertEquals(submitters - 50, refused);
            assertEquals(50, outstandingInDatabase(db));
            assertEquals(50, get("/api/queues/bounded").json().getJsonObject("admission").getInt("outstanding"));
        } finally {
            pool.shutdownNow();
            post("/api/queues/bounded/resume", "");
        }
        try (Connection db = DriverManager.getConnection(DB_URL, "postgres", "")) {
            await().atMost(Duration.ofSeconds(60)).until(() -> outstandingInDatabase(db) == 0);
        }
    }

    @Test
    void aRolledBackSubmissionGivesItsRoomBackAndARefusalLeavesTheTransactionUsable() {
        // tiny admits one job; paused, so nothing leaves it while the test looks.
        assertEquals(204, post("/api/queues/tiny/pause", "").status());
        try {
            String job = "{\"kind\": \"weir.noop\", \"queue\": \"tiny\"}";
            Server.Reply rolledBack = post("/api/diagnostics/transactional-submit",
                    "{\"job\": " + job + ", \"rollback\": true}");
            assertEquals(200, rolledBack.status(), rolledBack.body());
            assertEquals(1, get("/api/queues/tiny").json().getJsonObject("admission").getInt("maxPending"));

            Server.Reply first = post("/api/jobs", job);
            assertEquals(201, first.status(), "the rolled-back job gave its slot back: " + first.body());

            Server.Reply full = post("/api/jobs/batch", "[" + job + "]");
            assertEquals(429, full.status(), full.body());
            assertTrue(full.raw().headers().firstValue("Retry-After").isPresent());
            assertEquals("queue_full", full.json().getString("error"));
            assertEquals(1, full.json().getInt("outstanding"));

            // trySubmit inside an application transaction: a refusal is an answer, and the transaction still commits.
            Server.Reply tried = post("/api/diagnostics/transactional-submit",
                    "{\"job\": " + job + ", \"try\": true}");
            assertEquals(200, tried.status(), tried.body());
            assertFalse(tried.json().getBoolean("admitted"));
            assertTrue(tried.json().getBoolean("committed"));
            assertEquals(1, tried.json().getInt("limit"));
            assertTrue(tried.json().getInt("retryAfterSeconds") >= 1);

            JsonObject admission = get("/api/queues/tiny").json().getJsonObject("admission");
            assertEquals(1, admission.getInt("outstanding"));
            assertTrue(admission.getJsonNumber("refused").longValue() >= 2, admission.toString());
        } finally {
            post("/api/queues/tiny/resume", "");
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> get("/api/queues/tiny").json().getJsonObject("admission").getInt("outstanding") == 0);
        Server.Reply after = post("/api/diagnostics/transactional-submit",
                "{\"job\": {\"kind\": \"weir.noop\", \"queue\": \"tiny\"}, \"try\": true}");
        assertTrue(after.json().getBoolean("admitted"), "room back once the job completed: " + after.body());
    }
}
