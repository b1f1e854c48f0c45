package dev.weir.e2e;

import static org.awaitility.Awaitility.await;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonStructure;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The Weir server the end-to-end tests talk to (started by the build before the tests, on weir.it.http.port). */
final class Server {

    static final String BASE = "http://localhost:" + System.getProperty("weir.it.http.port", "9180");
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    record Reply(int status, String body, HttpResponse<String> raw) {
        JsonObject json() {
            try (JsonReader r = Json.createReader(new StringReader(body))) {
                return r.readObject();
            }
        }

        JsonStructure structure() {
            try (JsonReader r = Json.createReader(new StringReader(body))) {
                return r.read();
            }
        }
    }

    static Reply get(String path) {
        return send(HttpRequest.newBuilder(URI.create(BASE + path)).GET());
    }

    static Reply get(String path, TestUser user) {
        return send(HttpRequest.newBuilder(URI.create(BASE + path)).GET(), user);
    }

    static Reply post(String path, String json) {
        return post(path, json, "application/json");
    }

    static Reply post(String path, String body, String contentType) {
        return send(HttpRequest.newBuilder(URI.create(BASE + path)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    static Reply post(String path, String json, TestUser user) {
        return send(HttpRequest.newBuilder(URI.create(BASE + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)), user);
    }

    /** Sends the request as the admin user. */
    static Reply send(HttpRequest.Builder request) {
        return send(request, TestUser.ADMIN);
    }

    /** Sends the request as {@code user}; {@code null}: with no credentials. */
    static Reply send(HttpRequest.Builder request, TestUser user) {
        if (user != null) {
            request.header("Authorization", user.authorization());
        }
        try {
            HttpResponse<String> r = CLIENT.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body(), r);
        } catch (IOException e) {
            throw new IllegalStateException("cannot reach the Weir server at " + BASE + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Submits one job and answers its id. */
    static long submit(String json) {
        Reply r = post("/api/jobs", json);
        if (r.status() != 201) {
            throw new AssertionError("submit " + json + " → " + r.status() + " " + r.body());
        }
        return r.json().getJsonNumber("id").longValue();
    }

    static JsonObject job(long id) {
        return get("/api/jobs/" + id).json();
    }

    static JsonObject awaitState(long id, String state) {
        await().atMost(Duration.ofSeconds(30)).until(() -> job(id).getString("state").equals(state));
        return job(id);
    }

    private Server() {
    }
}
