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
}
