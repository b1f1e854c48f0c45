package dev.weir.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A Weir server started from the runnable jar ({@code target/weir-server.jar}) with an environment of the test's
 * choosing, its own embedded PostgreSQL and its own ports: for tests that need a configuration the shared test
 * server does not have. Stopped with SIGTERM, as an orchestrator would.
 */
final class ServerProcess implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final Path dir;
    final int httpPort;

    private ServerProcess(Process process, Path log, Path dir, int httpPort) {
        this.process = process;
        this.log = log;
        this.dir = dir;
        this.httpPort = httpPort;
    }

    static ServerProcess start(int httpPort, Map<String, String> env) throws IOException {
        Path jar = Path.of(System.getProperty("weir.it.server.jar", "target/weir-server.jar")).toAbsolutePath();
        Path dir = Files.createTempDirectory("weir-server-");
        Path log = dir.resolve("console.log");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString());
        pb.directory(dir.toFile());
        pb.redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        pb.environment().put("HTTP_PORT", Integer.toString(httpPort));
        pb.environment().put("HTTPS_PORT", Integer.toString(httpPort + 1));
        pb.environment().put("WEIR_EMBEDDED_DB_PORT", Integer.toString(httpPort + 10000));
        pb.environment().put("WEIR_EMBEDDED_DATA_DIR", dir.resolve("pgdata").toString());
        pb.environment().put("WLP_JAR_EXTRACT_DIR", dir.resolve("wlp").toString());
        pb.environment().remove("WEIR_DB_URL");
        pb.environment().putAll(env);
        return new ServerProcess(pb.start(), log, dir, httpPort);
    }

    String base() {
        return "http://localhost:" + httpPort;
    }

    String log() {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return "";
        }
    }

    int status(String path) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base() + path))
                    .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
