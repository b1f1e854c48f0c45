package dev.weir.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    void theWarningNamesTheDataSourceAndTheFixAndSaysWhetherThisServerCompiles() {
        String compiles = JitCheck.advice("jdbc/weir-engine", new Jit(true, true)).orElseThrow();
        assertTrue(compiles.contains("jdbc/weir-engine"), compiles);
        assertTrue(compiles.contains("options=\"-c jit=off\""), compiles);
        assertTrue(compiles.contains("twenty times slower"), compiles);
        String cannot = JitCheck.advice("jdbc/weir", new Jit(true, false)).orElseThrow();
        assertTrue(cannot.contains("data source jdbc/weir "), cannot);
        assertTrue(cannot.contains("cannot compile"), cannot);
        assertTrue(cannot.contains("options=\"-c jit=off\""), cannot);
    }
}
