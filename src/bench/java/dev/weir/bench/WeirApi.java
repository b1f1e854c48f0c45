package dev.weir.bench;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * The part of Weir's REST API the benchmarks use (DESIGN §5), over one shared {@link HttpClient}, which keeps a
 * connection per concurrent caller. Every call sends HTTP Basic credentials for the user {@code admin}: a server
 * without security ignores them, one with security needs them.
 */
final class WeirApi {

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final String base;
    private final String authorization;

    WeirApi(String baseUrl, String adminPassword) {
        this.base = baseUrl;
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString(("admin:" + adminPassword).getBytes(StandardCharsets.UTF_8));
    }

    /** {@code POST /api/jobs}: one job given as a JSON object; answers the new job's id. */
    long submit(String jobJson) throws IOException, InterruptedException {
        return read(send("POST", "/api/jobs", jobJson, 201)).getJsonNumber("id").longValue();
    }

    /** {@code POST /api/jobs/batch}: a JSON array of jobs, all or nothing. */
    void submitBatch(String jobsJson) throws IOException, InterruptedException {
        send("POST", "/api/jobs/batch", jobsJson, 201);
    }

    /**
     * {@code POST /api/diagnostics/submit-load} (diagnostics enabled): {@code threads} threads of the server submit
     * {@code batch} copies of the job per call through {@code JobSubmitter} for {@code seconds}; answers what they did
     * ({@code jobs}, {@code calls}, {@code errors}, {@code firstError}).
     */
    JsonObject submitLoad(String jobJson, int threads, int batch, int seconds)
            throws IOException, InterruptedException {
        return read(send("POST", "/api/diagnostics/submit-load", "{\"job\": " + jobJson + ", \"threads\": " + threads
                + ", \"batch\": " + batch + ", \"seconds\": " + seconds + "}", 200));
    }

    /**
     * A client of its own for a load thread: {@code POST}s {@code body} to {@code path} again and again, or
     * {@code GET}s it when body is null.
     */
    LoadClient loadClient(String path, String body) throws IOException {
        return new LoadClient(URI.create(base + path), authorization, body);
    }

    void pause(String queue) throws IOException, InterruptedException {
        send("POST", "/api/queues/" + queue + "/pause", "", 204);
    }

    void resume(String queue) throws IOException, InterruptedException {
        send("POST", "/api/queues/" + queue + "/resume", "", 204);
    }

    /** {@code GET /api/queues/{name}}. It counts the queue's jobs by reading the table: not for a tight loop. */
    JsonObject queue(String queue) throws IOException, InterruptedException {
        return read(send("GET", "/api/queues/" + queue, null, 200));
    }

    private String send(String method, String path, String body, int expected)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", authorization);
        if (body == null) {
            request.GET();
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IOException(method + " " + path + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return response.body();
    }

    private static JsonObject read(String body) {
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }
}
