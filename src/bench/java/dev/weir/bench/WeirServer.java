package dev.weir.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One Weir server started from the runnable jar ({@code java -jar weir-server.jar}), configured only by environment
 * variables, as an operator would start it.
 *
 * <p>The runnable jar's JVM is a launcher: it unpacks the server and starts the server's own JVM as its child. The
 * child is the process whose heap and CPU are Weir's, so {@link #serverPid()} finds it among the launcher's
 * descendants. {@link #close()} stops the launcher (which stops the server) and then anything of it still alive.
 */
final class WeirServer implements AutoCloseable {

    /** Servers not yet closed, stopped by a shutdown hook when the harness is interrupted. */
    private static final Set<WeirServer> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(RUNNING).forEach(WeirServer::close)));
    }

    private final String name;
    private final Process launcher;
    private final Path log;
    private final int port;

    private WeirServer(String name, Process launcher, Path log, int port) {
        this.name = name;
        this.launcher = launcher;
        this.log = log;
        this.port = port;
    }

    /**
     * Starts the jar with exactly the given Weir settings: variables of the caller's environment that Weir or the
     * server would read ({@code WEIR_*}, {@code HTTP_PORT}, {@code HTTPS_PORT}) are not passed on, so a shell's
     * leftovers cannot change what is measured. Waits until {@code /health/ready} answers 200.
     *
     * @param workDir the server's working directory, where its output goes; its log is {@code <name>.log} there,
     *     and the launcher unpacks the server under {@code extract/} there rather than in the user's home
     */
    static WeirServer start(String name, String java, Path jar, Map<String, String> settings, int port, Path workDir,
            Duration readyWithin) throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path log = workDir.resolve(name + ".log");
        ProcessBuilder pb = new ProcessBuilder(java, "-jar", jar.toAbsolutePath().toString())
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("WEIR_") || k.equals("HTTP_PORT") || k.equals("HTTPS_PORT"));
        env.put("HTTP_PORT", Integer.toString(port));
        env.put("HTTPS_PORT", Integer.toString(port + 1));
        env.put("WLP_JAR_EXTRACT_ROOT", workDir.resolve("extract").toAbsolutePath().toString());
        env.putAll(settings);
        WeirServer server = new WeirServer(name, pb.start(), log, port);
        RUNNING.add(server);
        try {
            server.awaitReady(readyWithin);
        } catch (IOException | RuntimeException | InterruptedException e) {
            server.close();
            throw e;
        }
        return server;
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    Path log() {
        return log;
    }

    /** The server JVM's process id: the launcher's java descendant, or the launcher itself if it has none. */
    long serverPid() {
        return launcher.toHandle().descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("java")).orElse(false))
                .map(ProcessHandle::pid)
                .reduce((first, second) -> second)
                .orElse(launcher.pid());
    }

    private void awaitReady(Duration within) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create(baseUrl() + "/health/ready"))
                .timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            if (!launcher.isAlive()) {
                throw new IOException("server " + name + " exited with " + launcher.exitValue() + " before it was"
                        + " ready; its log: " + log + "\n" + tail());
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new IOException("server " + name + " was not ready within " + within.toSeconds() + " s; its log: "
                + log + "\n" + tail());
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        if (!RUNNING.remove(this)) {
            return;
        }
        List<ProcessHandle> tree = launcher.toHandle().descendants().toList();
        launcher.destroy();
        try {
            if (!launcher.waitFor(60, TimeUnit.SECONDS)) {
                launcher.destroyForcibly();
            }
            for (ProcessHandle p : tree) {
                Optional.of(p).filter(ProcessHandle::isAlive).ifPresent(ProcessHandle::destroy);
                p.onExit().get(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            tree.forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
        }
    }
}
