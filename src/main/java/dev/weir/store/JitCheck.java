package dev.weir.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Whether PostgreSQL's JIT compiler is switched on for the sessions of a data source (ADR 0033). Weir's statements
 * are short, but the planner's estimate of a claim grows with the statistics of {@code weir.jobs}: once the table
 * holds about a million rows (kept history, a backlog), the estimate passes {@code jit_above_cost} and every claim is
 * compiled first, which costs far more than the claim itself. Weir's data sources therefore open their sessions with
 * {@code jit} off; this check says so at start-up when a data source was configured without it.
 */
public final class JitCheck {

    private JitCheck() {
    }

    /**
     * What a data source's sessions run with.
     *
     * @param on        the {@code jit} setting is on
     * @param compiles  this PostgreSQL can also compile (its JIT provider is installed): {@code pg_jit_available()}
     */
    public record Jit(boolean on, boolean compiles) {
    }

    /** Reads the setting on one of the data source's connections. */
    public static Jit of(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT current_setting('jit') = 'on', pg_jit_available()")) {
            r.next();
            return new Jit(r.getBoolean(1), r.getBoolean(2));
        }
    }

    /**
     * The warning for data source {@code name}, if its sessions run with jit on. Also where this PostgreSQL cannot
     * compile: nothing is lost there yet, but the same configuration on a server that can would be slow.
     */
    public static Optional<String> advice(String name, Jit jit) {
        if (!jit.on()) {
            return Optional.empty();
        }
        String fix = "keep -c jit=off in WEIR_DB_OPTIONS or, in a server.xml of your own, add options=\"-c jit=off\""
                + " to its properties.postgresql (ADR 0033)";
        return Optional.of(jit.compiles()
                ? "Weir: data source " + name + " runs with PostgreSQL's jit on: once weir.jobs holds about a million "
                        + "rows, PostgreSQL compiles Weir's statements before it runs them, which made drains twenty "
                        + "times slower; " + fix
                : "Weir: data source " + name + " runs with PostgreSQL's jit on; this PostgreSQL cannot compile, so "
                        + "it costs nothing here, but one that can would slow Weir down many times; " + fix);
    }
}
