package dev.weir.store;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What a failed auto-commit statement left behind, as PostgreSQL and its driver really report it (ADR 0035). */
class SqlFailuresIT {

    @Test
    void aStatementTheDatabaseRefusedStoredNothing() throws SQLException {
        try (Connection c = TestDatabase.dataSource().getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            s.execute("CREATE TEMPORARY TABLE refused (n integer CHECK (n > 0))");
            RuntimeException failure = assertThrows(RuntimeException.class,
                    () -> new ConnectionSql(c).query("INSERT INTO refused VALUES (1), (-1) RETURNING n"));
            assertTrue(SqlFailures.rolledBack(failure), "a check violation (23514) rolls the statement back");
            try (var rows = s.executeQuery("SELECT count(*) FROM refused")) {
                rows.next();
                assertEquals(0, rows.getLong(1), "the statement's first row is not stored either");
            }
        }
    }

    @Test
    void aSessionEndedDuringTheStatementLeavesItsFateUnknown() throws Exception {
        try (Connection victim = TestDatabase.dataSource().getConnection();
                Connection admin = TestDatabase.dataSource().getConnection()) {
            int pid;
            try (var rows = victim.createStatement().executeQuery("SELECT pg_backend_pid()")) {
                rows.next();
                pid = rows.getInt(1);
            }
            CompletableFuture<RuntimeException> failed = CompletableFuture.supplyAsync(() -> assertThrows(
                    RuntimeException.class, () -> new ConnectionSql(victim).query("SELECT pg_sleep(30)")));
            try (var st = admin.prepareStatement(
                    "SELECT count(*) FROM pg_stat_activity WHERE pid = ? AND query LIKE 'SELECT pg_sleep%'")) {
                st.setInt(1, pid);
                await().atMost(Duration.ofSeconds(10)).until(() -> {
                    try (var rows = st.executeQuery()) {
                        rows.next();
                        return rows.getLong(1) == 1;
                    }
                });
            }
            try (var st = admin.prepareStatement("SELECT pg_terminate_backend(?)")) {
                st.setInt(1, pid);
                st.execute();
            }
            RuntimeException failure = failed.get(30, TimeUnit.SECONDS);
            assertFalse(SqlFailures.rolledBack(failure), "the session ended (57P01 or 08006): " + failure);
        }
    }

    @Test
    void onlyAnSqlExceptionWithTheServersStateCountsAsARefusal() {
        assertTrue(SqlFailures.rolledBack(wrapped(new SQLException("deadlock", "40P01"))));
        assertFalse(SqlFailures.rolledBack(wrapped(new SQLException("lost", "08006"))));
        assertFalse(SqlFailures.rolledBack(wrapped(new SQLTransientConnectionException("pool empty"))));
        assertFalse(SqlFailures.rolledBack(wrapped(new SQLException("shutting down", "57P01"))));
        assertFalse(SqlFailures.rolledBack(new IllegalStateException("an answer that could not be read")));
    }

    private static RuntimeException wrapped(SQLException e) {
        return new RuntimeException("persistence", new IllegalStateException("database", e));
    }
}
