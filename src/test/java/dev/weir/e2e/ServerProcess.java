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
 * choosing, its own embedded PostgreSQL (unless the environment names a {@code WEIR_DB_URL}) and its own ports: for
 * tests that need a configuration the shared test server does not have. Stopped with SIGTERM, as an orchestrator
 * would.
 *
 * <p>The runnable jar's JVM is only a launcher: it extracts the server and runs it in a child JVM. Signals meant for
 * the server ({@link #kill()}, {@link #terminate()}) therefore go to the whole process tree, child first.
 */
public final class ServerProcess implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final Path dir;
    public final int httpPort;

    private ServerProcess(Process process, Path log, Path dir, int httpPort) {
        this.process = process;
        this.log = log;
        this.dir = dir;
        this.httpPort = httpPort;
    }

    public static ServerProcess start(int httpPort, Map<String, String> env) throws IOException {
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
        pb.environment().putAll(TestUser.passwords());
        pb.environment().putAll(env);
        return new ServerProcess(pb.start(), log, dir, httpPort);
    }

    public String base() {
        return "http://localhost:" + httpPort;
    }

    public String log() {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return "";
        }
    }

    public int status(String path) {
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

    /** Whether the server (launcher or server JVM) is still running. */
    public boolean alive() {
        return process.isAlive() || process.descendants().anyMatch(ProcessHandle::isAlive);
    }

    /** SIGKILL to the server JVM and its launcher, as {@code kill -9} would: no shutdown hook, no drain. */
    public void kill() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /** SIGTERM to the server JVM (the launcher follows it), as a container platform stops a server. */
    public void terminate() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
    }

    /** Waits until the launcher and the server JVM have both exited; false if they are still running then. */
    public boolean awaitExit(Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        java.util.List<ProcessHandle> all = new java.util.ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        for (ProcessHandle p : all) {
            long left = until - System.nanoTime();
            try {
                p.onExit().get(Math.max(1, left), java.util.concurrent.TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() throws Exception {
        if (alive()) {
            terminate();
            if (!awaitExit(Duration.ofSeconds(60))) {
                kill();
            }
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
