package dev.weir.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.store.JitCheck.Jit;
import dev.weir.testing.TestDatabase;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JitCheckIT {

    @Test
    void aSessionOpenedWithoutOptionsRunsWithPostgresqlsDefaultJitOn() throws SQLException {
        Jit jit = JitCheck.of(TestDatabase.dataSource());
        assertTrue(jit.on(), "PostgreSQL's default is jit = on");
        assertTrue(JitCheck.advice("jdbc/test", jit).isPresent());
    }

    @Test
    void theOptionsWeirsDataSourcesUseTurnItOff() throws SQLException {
        Jit jit = JitCheck.of(TestDatabase.dataSource(Map.of("options", "-c jit=off")));
        assertEquals(new Jit(false, false), jit);
        assertTrue(JitCheck.advice("jdbc/test", jit).isEmpty());
    }

    @Test
    void aServerThatCanCompileGetsAWarningOneThatCannotAnInformation() {
        JitCheck.Advice compiles = JitCheck.advice("jdbc/weir-engine", new Jit(true, true)).orElseThrow();
        assertTrue(compiles.warning());
        assertTrue(compiles.message().contains("jdbc/weir-engine"), compiles.message());
        assertTrue(compiles.message().contains("options=\"-c jit=off\""), compiles.message());
        JitCheck.Advice cannot = JitCheck.advice("jdbc/weir", new Jit(true, false)).orElseThrow();
        assertFalse(cannot.warning());
        assertTrue(cannot.message().contains("jdbc/weir"), cannot.message());
    }
}
