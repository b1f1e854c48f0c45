package dev.weir.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weir.testing.JdbcTransactor;
import dev.weir.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Kept sessions on real connections (ADR 0039): close statements share a backend; a session the database ended is
 * caught when it was quiet for longer than the freshness, and costs one failed statement when it was not.
 */
class KeptSessionsIT {

    private static final long FRESH = 5_000_000;

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final KeptSessions sessions = new KeptSessions(2, FRESH,
            new JdbcTransactor(TestDatabase.dataSource())::session, now::get);

    @AfterEach
    void close() {
        sessions.close();
    }

    private int backend() {
        return ((Number) sessions.alone(sql -> sql.query("SELECT pg_backend_pid()")).get(0)[0]).intValue();
    }

    private static void terminate(int pid) throws SQLException {
        try (Connection admin = TestDatabase.dataSource().getConnection();
                var st = admin.prepareStatement("SELECT pg_terminate_backend(?, 10000)")) {
            st.setInt(1, pid);
            st.execute();
        }
    }

    @Test
    void statementsThatFollowCloselyRunOnOneBackend() {
        int first = backend();
        now.addAndGet(FRESH);
        assertEquals(first, backend());
        now.addAndGet(FRESH);
        assertEquals(first, backend());
    }

    @Test
    void aSessionEndedWhileQuietIsReplacedBeforeTheNextStatement() throws SQLException {
        int first = backend();
        terminate(first);
        now.addAndGet(FRESH + 1);
        int second = backend();
        assertNotEquals(first, second, "the statement ran on a new connection, and did not fail");
    }

    @Test
    void aSessionEndedBetweenCloseStatementsFailsOneStatementWithItsFateUnknown() throws SQLException {
        int first = backend();
        terminate(first);
        now.addAndGet(FRESH);
        RuntimeException failure = assertThrows(RuntimeException.class, this::backend);
        assertFalse(SqlFailures.rolledBack(failure), "a session the server ended (57P01 or 08006): " + failure);
        assertNotEquals(first, backend(), "the statement after it takes a new connection");
    }
}
