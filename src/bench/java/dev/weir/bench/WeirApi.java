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
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

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

    /**
     * Pauses every queue given, all requests sent at once: a drain over several queues must not start, or stop, one
     * queue a request's round trip after another (one after the other, eight resumes took about 0.1 s, a tenth of a
     * drain on a fast machine, with the first queues running alone meanwhile). The connections they open stay in the
     * client's pool for the {@linkplain #resumeAll resume}.
     */
    void pauseAll(List<String> queues) throws IOException, InterruptedException {
        all("pause", queues);
    }

    /** Resumes every queue given, all requests sent at once ({@link #pauseAll}). */
    void resumeAll(List<String> queues) throws IOException, InterruptedException {
        all("resume", queues);
    }

    private void all(String action, List<String> queues) throws IOException, InterruptedException {
        List<CompletableFuture<String>> sent = new ArrayList<>(queues.size());
        for (String q : queues) {
            sent.add(sendAsync("POST", "/api/queues/" + q + "/" + action, "", 204));
        }
        for (CompletableFuture<String> s : sent) {
            try {
                s.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                throw new IOException(e.getCause());
            }
        }
    }

    /**
     * The server's group commits so far, {@code {"groups", "requests"}}; null from a server without the diagnostic
     * (a build before it).
     */
    JsonObject groupCommits() throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request("GET", "/api/diagnostics/group-commits", null),
                HttpResponse.BodyHandlers.ofString());
        return response.statusCode() == 200 ? read(response.body()) : null;
    }

    /** {@code GET /api/queues/{name}}. It counts the queue's jobs by reading the table: not for a tight loop. */
    JsonObject queue(String queue) throws IOException, InterruptedException {
        return read(send("GET", "/api/queues/" + queue, null, 200));
    }

    private String send(String method, String path, String body, int expected)
            throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request(method, path, body), HttpResponse.BodyHandlers.ofString());
        return checked(method, path, expected, response);
    }

    private CompletableFuture<String> sendAsync(String method, String path, String body, int expected) {
        return http.sendAsync(request(method, path, body), HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> {
                    try {
                        return checked(method, path, expected, response);
                    } catch (IOException e) {
                        throw new CompletionException(e);
                    }
                });
    }

    private HttpRequest request(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", authorization);
        if (body == null) {
            request.GET();
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return request.build();
    }

    private static String checked(String method, String path, int expected, HttpResponse<String> response)
            throws IOException {
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
