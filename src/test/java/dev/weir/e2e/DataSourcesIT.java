package dev.weir.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The packaged server's data sources, as the running server found them at start-up (ADR 0033, ADR 0034, ADR 0037). */
class DataSourcesIT {

    private static final Path MESSAGES_LOG = Path.of(System.getProperty("weir.it.server.dir"), "logs", "messages.log");

    @Test
    void everyDataSourceOpensItsSessionsWithJitOff() throws IOException {
        assertEquals(200, Server.get("/health/ready").status(), "the server is up");
        String messages = Files.readString(MESSAGES_LOG, StandardCharsets.UTF_8);
        assertTrue(messages.contains("Weir: ready in"), "the server logged its start-up");
        // WeirRuntime reads each data source's jit setting before it says it is ready, and names any that is on.
        assertFalse(messages.contains("runs with PostgreSQL's jit on"), "a data source runs with jit on");
        // And whether the engine's and the submissions' sessions keep generic plans (ADR 0034, ADR 0037).
        assertFalse(messages.contains("runs with plan_cache_mode"), "the engine's or the submissions' sessions do not "
                + "keep generic plans");
    }
}
