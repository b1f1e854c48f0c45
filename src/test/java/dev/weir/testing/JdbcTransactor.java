package dev.weir.testing;

import dev.weir.store.ConnectionSql;
import dev.weir.store.Sql;
import dev.weir.store.Transactor;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Function;
import javax.sql.DataSource;

/** {@link Transactor} over plain JDBC: one connection and one transaction per call. */
public final class JdbcTransactor implements Transactor {

    private final DataSource dataSource;

    public JdbcTransactor(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public <T> T inNewTransaction(Function<Sql, T> work) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                T result = work.apply(new ConnectionSql(c));
                c.commit();
                return result;
            } catch (RuntimeException | Error e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** A session on one connection in auto-commit, kept until a statement fails or the session is closed. */
    @Override
    public Session session() {
        return new Session() {
            private Connection connection;

            @Override
            public <T> T alone(Function<Sql, T> work) {
                try {
                    if (connection == null) {
                        connection = dataSource.getConnection();
                        connection.setAutoCommit(true);
                    }
                    return work.apply(new ConnectionSql(connection));
                } catch (SQLException e) {
                    close();
                    throw new IllegalStateException(e.getMessage(), e);
                } catch (RuntimeException | Error e) {
                    close();
                    throw e;
                }
            }

            @Override
            public void close() {
                if (connection != null) {
                    try {
                        connection.close();
                    } catch (SQLException ignored) {
                        // it was broken already
                    } finally {
                        connection = null;
                    }
                }
            }
        };
    }

    /** The statements of {@code work} (usually one) in auto-commit: each commits by itself. */
    @Override
    public <T> T alone(Function<Sql, T> work) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            return work.apply(new ConnectionSql(c));
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
