package dev.weir.e2e;

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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The runnable jar, started with configurations the shared test server does not have. */
class RunnableJarIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static JsonObject getJson(ServerProcess s, String path) throws Exception {
        String body = HTTP.send(HttpRequest.newBuilder(URI.create(s.base() + path))
                .header("Authorization", TestUser.ADMIN.authorization()).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        try (JsonReader r = Json.createReader(new StringReader(body))) {
            return r.readObject();
        }
    }

    private static void post(ServerProcess s, String path, String json) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(s.base() + path))
                .header("Authorization", TestUser.ADMIN.authorization())
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
    }

    private static JsonObject queuesData(ServerProcess s) throws Exception {
        for (JsonValue c : getJson(s, "/health/ready").getJsonArray("checks")) {
            if (c.asJsonObject().getString("name").equals("weir-queues")) {
                return c.asJsonObject().getJsonObject("data");
            }
        }
        throw new AssertionError("no weir-queues check");
    }

    @Test
    void invalidConfigurationStopsTheDeploymentNamingTheKey() throws Exception {
        try (ServerProcess s = ServerProcess.start(9380, Map.of("WEIR_QUEUES", "emails",
                "WEIR_QUEUE_EMAILS_WEIGHT", "0"))) {
            await().atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(500))
                    .until(() -> s.log().contains("INVALID_WEIGHT: weir.queue.emails.weight = 0 (must be ≥ 1)"));
            // The server itself comes up and answers; Weir's application does not, and readiness says so.
            await().atMost(Duration.ofSeconds(60)).until(() -> s.status("/health/ready") == 503);
            assertEquals(404, s.status("/api/queues"), "the application did not start");
        }
    }

    @Test
    void sessionOptionsComeFromWeirDbOptionsAndStartUpNamesWhatTheyChange() throws Exception {
        // The packaged default is "-c jit=off" (DataSourcesIT); an operator's own options replace it on every data
        // source, and start-up names each data source that now runs with jit on (ADR 0033). They come after the
        // engine's and the submissions' own plan_cache_mode, so they can change that too, and start-up says so (ADR
        // 0034, ADR 0037); likewise the engine's enable_seqscan (ADR 0046).
        try (ServerProcess s = ServerProcess.start(9400,
                Map.of("WEIR_DB_OPTIONS", "-c jit=on -c plan_cache_mode=auto -c enable_seqscan=on"))) {
            await().atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(500))
                    .until(() -> s.status("/health/ready") == 200);
            await().atMost(Duration.ofSeconds(10)).until(() -> s.log().contains("Weir: ready in"));
            for (String source : List.of("jdbc/weir", "jdbc/weir-engine", "jdbc/weir-submit", "jdbc/weir-session")) {
                assertTrue(s.log().contains("data source " + source + " runs with PostgreSQL's jit on"),
                        source + " was not named:\n" + s.log());
            }
            for (String source : List.of("jdbc/weir-engine", "jdbc/weir-submit")) {
                assertTrue(s.log().contains("data source " + source + " runs with plan_cache_mode = auto"), s.log());
            }
            assertTrue(s.log().contains("data source jdbc/weir-engine runs with enable_seqscan = on"), s.log());
            assertFalse(s.log().contains("data source jdbc/weir-submit runs with enable_seqscan"),
                    "only the engine's sessions are meant to run without sequential scans:\n" + s.log());
        }
    }

    @Test
    void weightedModeSplitsTheBudgetAndReportsIt() throws Exception {
        try (ServerProcess s = ServerProcess.start(9390, Map.of(
                "WEIR_QUEUES", "light,heavy",
                "WEIR_GLOBAL_MAX_WORKERS", "12",
                "WEIR_QUEUE_LIGHT_MIN_WORKERS", "1",
                "WEIR_QUEUE_HEAVY_WEIGHT", "3",
                "WEIR_DIAGNOSTICS_ENABLED", "true",
                "WEIR_VIEWER_PASSWORD", ""))) {
            await().atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(500))
                    .until(() -> s.status("/health/ready") == 200);
            // The jar carries no password: a user whose password this server was not given does not exist.
            assertEquals(401, HTTP.send(HttpRequest.newBuilder(URI.create(s.base() + "/api/queues"))
                    .header("Authorization", TestUser.VIEWER.authorization()).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode());
            JsonObject data = queuesData(s);
            assertEquals("weighted", data.getString("light.mode"));
            assertEquals(1, data.getInt("light.min-workers"));
            assertEquals(3, data.getInt("heavy.weight"));
            assertEquals(0, data.getInt("heavy.overflow-held"));
            JsonObject capacity = getJson(s, "/api/queues/heavy").getJsonObject("capacity");
            assertEquals("weighted", capacity.getString("mode"));
            assertEquals(0, capacity.getInt("minWorkers"));
            assertEquals(3, capacity.getInt("weight"));

            String batch = "[" + "{\"kind\": \"weir.sleep\", \"args\": {\"ms\": 300}, \"queue\": \"light\"},".repeat(199)
                    + "{\"kind\": \"weir.sleep\", \"args\": {\"ms\": 300}, \"queue\": \"light\"}]";
            post(s, "/api/jobs/batch", batch);
            post(s, "/api/jobs/batch", batch.replace("\"light\"", "\"heavy\""));
            await().atMost(Duration.ofSeconds(30)).until(() -> queuesData(s).getInt("heavy.in-flight") >= 7);
            long light = 0;
            long heavy = 0;
            long lightLent = 0;
            long heavyLent = 0;
            for (int i = 0; i < 20; i++) {
                JsonObject d = queuesData(s);
                int l = d.getInt("light.in-flight");
                int h = d.getInt("heavy.in-flight");
                // The health check reads one queue after the other, so a permit that moves from light to heavy in
                // between is counted twice: allow that one. (WeightedEngineIT checks the exact bound on the running
                // rows in the database.)
                assertTrue(l + h <= 13, "in flight " + l + " + " + h + " exceeds the global budget of 12 by more "
                        + "than one permit in transit");
                assertTrue(d.getInt("light.overflow-held") + d.getInt("heavy.overflow-held") <= 12);
                light += l;
                heavy += h;
                lightLent += d.getInt("light.overflow-held");
                heavyLent += d.getInt("heavy.overflow-held");
                Thread.sleep(100);
            }
            // The 11 lendable permits split 3 : 1 (ADR 0009): 8 + 3 or 9 + 2, the remainder taking turns. So in flight
            // heavy has 8 or 9 and light 4 or 3 (its own permit plus its loan); an even split would lend 5.5 each.
            assertTrue(heavyLent >= 2 * lightLent, "weight 3 against 1: lent to heavy " + heavyLent + ", to light "
                    + lightLent);
            // In flight about 2 : 1; a sample can catch a permit between one job and the next, so with a margin.
            assertTrue(2 * heavy >= 3 * light, "weight 3 against 1 (plus one guaranteed): in flight heavy " + heavy
                    + ", light " + light);
        }
    }
}
