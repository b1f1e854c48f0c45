package dev.weir.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.testing.ServerXml;
import dev.weir.testing.TestDatabase;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SequentialScanCheckIT {

    @Test
    void aSessionOpenedWithoutOptionsLetsThePlannerChooseSequentialScansAndIsNamed() throws SQLException {
        String setting = SequentialScanCheck.of(TestDatabase.dataSource());
        assertEquals("on", setting);
        String warning = SequentialScanCheck.advice("jdbc/weir-engine", setting).orElseThrow();
        assertTrue(warning.contains("data source jdbc/weir-engine runs with enable_seqscan = on"), warning);
        assertTrue(warning.contains("\"-c enable_seqscan=off\""), warning);
    }

    @Test
    void theShippedEngineOptionsPassAndAnOperatorsLaterOptionIsNamed() throws SQLException, IOException {
        String shipped = ServerXml.dataSourceOptions("weir-engine");
        String engine = SequentialScanCheck.of(TestDatabase.dataSource(Map.of("options", shipped)));
        assertEquals("off", engine);
        assertTrue(SequentialScanCheck.advice("jdbc/weir-engine", engine).isEmpty());
        // WEIR_DB_OPTIONS comes last in the engine's options, so an operator's setting there wins, and is named.
        String overridden = SequentialScanCheck.of(TestDatabase.dataSource(
                Map.of("options", shipped + " -c enable_seqscan=on")));
        assertEquals("on", overridden);
        assertTrue(SequentialScanCheck.advice("jdbc/weir-engine", overridden).isPresent());
    }
}
