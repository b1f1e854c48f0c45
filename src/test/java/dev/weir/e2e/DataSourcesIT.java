package dev.weir.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * What the packaged server's start-up checks found: its data sources (ADR 0033, ADR 0034, ADR 0037) and Liberty's
 * default executor (ADR 0042).
 */
class DataSourcesIT {

    private static final Path MESSAGES_LOG = Path.of(System.getProperty("weir.it.server.dir"), "logs", "messages.log");

    /** The server's log, once it is up and has logged its start-up. */
    private static String startUpLog() throws IOException {
        assertEquals(200, Server.get("/health/ready").status(), "the server is up");
        String messages = Files.readString(MESSAGES_LOG, StandardCharsets.UTF_8);
        assertTrue(messages.contains("Weir: ready in"), "the server logged its start-up");
        return messages;
    }

    @Test
    void everyDataSourceOpensItsSessionsWithJitOff() throws IOException {
        String messages = startUpLog();
        // WeirRuntime reads each data source's jit setting before it says it is ready, and names any that is on.
        assertFalse(messages.contains("runs with PostgreSQL's jit on"), "a data source runs with jit on");
        // And whether the engine's and the submissions' sessions keep generic plans (ADR 0034, ADR 0037).
        assertFalse(messages.contains("runs with plan_cache_mode"), "the engine's or the submissions' sessions do not "
                + "keep generic plans");
        // And whether the engine's leave sequential scans to the planner (ADR 0046).
        assertFalse(messages.contains("runs with enable_seqscan"), "the engine's sessions may choose sequential scans");
    }

    @Test
    void startUpWarnsWhenTheQueuesMayRunMoreJobsThanTheExecutorKeepsThreads() throws IOException {
        // default 100, emails 4, bounded 8 and tiny 100 workers (server.env), against server.xml's default of 140
        // threads, which server.env leaves as it is.
        String messages = startUpLog();
        assertTrue(messages.contains("the queues may run 212 jobs at once on this instance, but Liberty's default"
                + " executor, which runs them and the HTTP requests, keeps only 140 threads"
                + " (WEIR_EXECUTOR_CORE_THREADS)"),
                "start-up read server.xml's default through MicroProfile Config and named the shortfall");
        assertTrue(messages.contains("Set WEIR_EXECUTOR_CORE_THREADS to at least 252"), "it says what to set");
    }
}
