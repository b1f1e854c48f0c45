package dev.weir.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The harness's own connection to the benchmark database, in auto-commit mode, for reading what the server wrote.
 *
 * <p>Every statement is its own transaction, and PostgreSQL counts it in {@code pg_stat_database.xact_commit} like
 * the server's: {@link #statements()} says how many the harness ran, so that the commits-per-job figure can leave
 * them out.
 */
final class BenchDb implements AutoCloseable {

    private final Connection connection;
    private long statements;

    private BenchDb(Connection connection) {
        this.connection = connection;
    }

    /** Where a PostgreSQL server is and who to be: from the libpq variables, as {@code psql} reads them. */
    record Server(String host, int port, String user, String password) {

        static Server fromEnvironment() {
            return new Server(env("PGHOST", "127.0.0.1"), Integer.parseInt(env("PGPORT", "5432")),
                    env("PGUSER", "postgres"), env("PGPASSWORD", ""));
        }

        String jdbcUrl(String database) {
            return "jdbc:postgresql://" + host + ":" + port + "/" + database;
        }

        private static String env(String name, String fallback) {
            String v = System.getenv(name);
            return v == null || v.isBlank() ? fallback : v;
        }
    }

    static BenchDb open(String jdbcUrl, String user, String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        if (password != null && !password.isEmpty()) {
            p.setProperty("password", password);
        }
        p.setProperty("ApplicationName", "weir-bench");
        return new BenchDb(DriverManager.getConnection(jdbcUrl, p));
    }

    /** Creates the database unless it exists, through the server's {@code postgres} database. */
    static void ensureDatabase(Server server, String database) throws SQLException {
        try (BenchDb admin = open(server.jdbcUrl("postgres"), server.user(), server.password())) {
            if (admin.count("SELECT count(*) FROM pg_database WHERE datname = ?", database) == 0) {
                admin.execute("CREATE DATABASE \"" + database.replace("\"", "\"\"") + "\"");
            }
        }
    }

    long statements() {
        return statements;
    }

    void execute(String sql) throws SQLException {
        statements++;
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    long count(String sql, Object... params) throws SQLException {
        return row(sql, params).get(0).longValue();
    }

    /** The first row of a query whose columns are all numbers (null reads as 0). */
    List<Number> row(String sql, Object... params) throws SQLException {
        List<List<Number>> rows = rows(sql, params);
        if (rows.isEmpty()) {
            throw new SQLException("no row from " + sql);
        }
        return rows.get(0);
    }

    /** Every row of a query whose columns are all numbers (null reads as 0). */
    List<List<Number>> rows(String sql, Object... params) throws SQLException {
        statements++;
        try (PreparedStatement s = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                List<List<Number>> rows = new ArrayList<>();
                while (rs.next()) {
                    List<Number> values = new ArrayList<>();
                    for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
                        Object v = rs.getObject(c);
                        values.add(v == null ? 0 : (Number) v);
                    }
                    rows.add(values);
                }
                return rows;
            }
        }
    }

    /** Every row's first column, as numbers. */
    List<Double> column(String sql, Object... params) throws SQLException {
        statements++;
        try (PreparedStatement s = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            List<Double> values = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    values.add(rs.getDouble(1));
                }
            }
            return values;
        }
    }

    boolean bool(String sql, Object... params) throws SQLException {
        statements++;
        try (PreparedStatement s = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
