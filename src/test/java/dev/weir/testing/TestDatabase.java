package dev.weir.testing;

import dev.weir.store.Migrator;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real PostgreSQL for tests that need no server: one embedded PostgreSQL per test JVM, Weir's migrations
 * applied once, and Weir's tables emptied before each test. Use with {@code @ExtendWith(TestDatabase.class)} and
 * {@link #dataSource()}.
 */
public final class TestDatabase implements BeforeEachCallback {

    private static EmbeddedPostgres postgres;

    public static synchronized DataSource dataSource() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder().start();
                Migrator.migrate(postgres.getPostgresDatabase());
            } catch (IOException | SQLException e) {
                throw new IllegalStateException("cannot start the embedded PostgreSQL for tests", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException e) {
                    // the JVM is going away anyway
                }
            }));
        }
        return postgres.getPostgresDatabase();
    }

    /** A data source for the test database whose sessions open with the given connection properties. */
    public static DataSource dataSource(Map<String, String> properties) {
        dataSource();
        return postgres.getDatabase("postgres", "postgres", properties);
    }

    /** How many rows of weir.jobs match {@code where} (an SQL condition written by the test). */
    public static long countJobs(String where) {
        try (Connection c = dataSource().getConnection(); Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM weir.jobs WHERE " + where)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) throws SQLException {
        try (Connection c = dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("TRUNCATE weir.jobs, weir.instances, weir.queues, weir.periodic_jobs, weir.admission_slots "
                    + "RESTART IDENTITY");
        }
    }
}
