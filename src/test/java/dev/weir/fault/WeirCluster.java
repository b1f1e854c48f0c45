package dev.weir.fault;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weir.e2e.ServerProcess;
import dev.weir.e2e.TestUser;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Two Weir instances (runnable jars, real processes) sharing one {@link FaultDatabase}, each restartable on its own
 * ports. The settings are short so that faults show within seconds: heartbeat every second, rescue after three.
 */
final class WeirCluster implements AutoCloseable {

    static final Duration HEARTBEAT = Duration.ofSeconds(1);
    static final Duration RESCUE_AFTER = Duration.ofSeconds(3);
    static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(8);
    /** The slow queue's deadline, for hanging handlers. */
    static final Duration SLOW_DEADLINE = Duration.ofSeconds(2);
    static final int WORKERS = 8;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    private final FaultDatabase db;
    private final int[] ports;
    private final ServerProcess[] servers;

    WeirCluster(FaultDatabase db, int... ports) {
        this.db = db;
        this.ports = ports;
        this.servers = new ServerProcess[ports.length];
    }

    int size() {
        return ports.length;
    }

    ServerProcess server(int i) {
        return servers[i];
    }

    /** Starts instance {@code i} (a fresh process) without waiting for it. */
    synchronized void launch(int i) throws IOException {
        if (servers[i] != null) {
            try {
                servers[i].close();
            } catch (Exception e) {
                throw new IOException(e);
            }
        }
        Map<String, String> env = new HashMap<>();
        env.put("WEIR_DB_URL", db.jdbcUrl());
        env.put("WEIR_DB_USER", FaultDatabase.ROLE);
        env.put("WEIR_QUEUES", "default,slow");
        env.put("WEIR_QUEUE_DEFAULT_MAX_WORKERS", Integer.toString(WORKERS));
        env.put("WEIR_QUEUE_SLOW_MAX_WORKERS", "2");
        env.put("WEIR_QUEUE_SLOW_DEADLINE", SLOW_DEADLINE.toString());
        env.put("WEIR_HEARTBEAT_INTERVAL", HEARTBEAT.toString());
        env.put("WEIR_RESCUE_AFTER", RESCUE_AFTER.toString());
        env.put("WEIR_SHUTDOWN_TIMEOUT", SHUTDOWN_TIMEOUT.toString());
        env.put("WEIR_DIAGNOSTICS_ENABLED", "true");
        servers[i] = ServerProcess.start(ports[i], env);
    }

    void start(int i) throws IOException {
        launch(i);
        awaitReady(i);
    }

    void awaitReady(int i) {
        await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(250))
                .failFast("instance " + i + " exited; its log:\n" + tail(i), () -> !servers[i].alive())
                .until(() -> servers[i].status("/health/ready") == 200);
    }

    /**
     * Starts every instance that is not running, in parallel, and waits until all are ready; one that exits
     * meanwhile (a previous test's stop still under way, a crash) is started again.
     */
    void ensureAllReady() {
        await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(250)).until(() -> {
            boolean ready = true;
            for (int i = 0; i < ports.length; i++) {
                if (servers[i] == null || !servers[i].alive()) {
                    launch(i);
                    ready = false;
                } else if (servers[i].status("/health/ready") != 200) {
                    ready = false;
                }
            }
            return ready;
        });
    }

    String tail(int i) {
        String log = servers[i] == null ? "" : servers[i].log();
        return log.length() <= 6000 ? log : log.substring(log.length() - 6000);
    }

    /** This instance's name in {@code weir.jobs.owner} (from its readiness data). */
    String instanceName(int i) {
        for (JsonValue c : json(get(i, "/health/ready")).asJsonObject().getJsonArray("checks")) {
            JsonObject check = c.asJsonObject();
            if (check.getString("name").equals("weir-dispatchers")) {
                return check.getJsonObject("data").getString("instance");
            }
        }
        throw new AssertionError("no weir-dispatchers check on instance " + i);
    }

    /** A queue's in-flight count on one instance (its permits held), from {@code GET /api/queues/{name}}. */
    int inFlight(int i, String queue) {
        HttpResponse<String> r = get(i, "/api/queues/" + queue);
        assertEquals(200, r.statusCode(), () -> r.body() + "\ninstance " + i + "'s log ends:\n" + tail(i));
        return json(r).asJsonObject().getJsonObject("capacity").getInt("inFlight");
    }

    /** Submits a batch through instance {@code i}; returns the new ids. */
    List<Long> submit(int i, String jobJson, int count) {
        StringBuilder body = new StringBuilder("[");
        for (int k = 0; k < count; k++) {
            body.append(k == 0 ? "" : ",").append(jobJson);
        }
        HttpResponse<String> r = post(i, "/api/jobs/batch", body.append(']').toString());
        assertEquals(201, r.statusCode(), () -> r.body() + "\ninstance " + i + "'s log ends:\n" + tail(i));
        List<Long> ids = new ArrayList<>();
        for (JsonValue v : json(r).asJsonObject().getJsonArray("ids")) {
            ids.add(((jakarta.json.JsonNumber) v).longValue());
        }
        return ids;
    }

    /** Like {@link #submit} but for load generators: empty when the instance cannot take it now. */
    Optional<List<Long>> trySubmit(int i, String jobJson, int count) {
        try {
            return Optional.of(submit(i, jobJson, count));
        } catch (RuntimeException | AssertionError e) {
            return Optional.empty();
        }
    }

    HttpResponse<String> get(int i, String path) {
        return send(HttpRequest.newBuilder(URI.create(servers[i].base() + path)).GET());
    }

    HttpResponse<String> post(int i, String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(servers[i].base() + path)).header("Content-Type",
                "application/json").POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.header("Authorization", TestUser.ADMIN.authorization())
                    .timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonValue json(HttpResponse<String> r) {
        try (JsonReader reader = Json.createReader(new StringReader(r.body()))) {
            return reader.readValue();
        }
    }

    static JsonArray array(HttpResponse<String> r) {
        return json(r).asJsonArray();
    }

    @Override
    public void close() {
        for (ServerProcess s : servers) {
            if (s != null) {
                try {
                    s.close();
                } catch (Exception e) {
                    // closing the others matters more
                }
            }
        }
    }
}
