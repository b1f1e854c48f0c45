package dev.weir.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.testing.ServerXml;
import dev.weir.testing.TestDatabase;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GenericPlanCheckIT {

    @Test
    void aSessionOpenedWithoutOptionsLeavesThePlanChoiceToPostgresql() throws SQLException {
        String mode = GenericPlanCheck.of(TestDatabase.dataSource());
        assertEquals("auto", mode);
        String warning = GenericPlanCheck.advice("jdbc/weir-engine", mode).orElseThrow();
        assertTrue(warning.contains("data source jdbc/weir-engine runs with plan_cache_mode = auto"), warning);
        assertTrue(warning.contains("\"-c plan_cache_mode=force_generic_plan\""), warning);
    }

    @Test
    void theEnginesOptionsKeepGenericPlansAndAnOperatorsLaterOptionWins() throws SQLException, IOException {
        // The engine's data source puts its setting before WEIR_DB_OPTIONS; PostgreSQL applies the options in order.
        String shipped = ServerXml.dataSourceOptions("weir-engine");
        String engine = GenericPlanCheck.of(TestDatabase.dataSource(Map.of("options", shipped)));
        assertEquals("force_generic_plan", engine);
        assertTrue(GenericPlanCheck.advice("jdbc/weir-engine", engine).isEmpty());
        String overridden = GenericPlanCheck.of(TestDatabase.dataSource(
                Map.of("options", shipped + " -c plan_cache_mode=force_custom_plan")));
        assertEquals("force_custom_plan", overridden);
        assertTrue(GenericPlanCheck.advice("jdbc/weir-engine", overridden).isPresent());
    }
}
