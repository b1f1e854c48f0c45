package dev.weir.fault;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The PostgreSQL of the fault tests: a real server that this test JVM starts, stops and starts again on the same
 * port and the same data, so that it can be taken away from the Weir instances without touching any other
 * database of the machine.
 *
 * <p>Weir connects as the role {@value #ROLE} (not a superuser, so that a connection limit binds it) to the database
 * {@value #DATABASE}, which it owns; the test itself connects as the superuser {@code postgres} to watch and to
 * break things.
 */
final class FaultDatabase implements AutoCloseable {

    static final String ROLE = "weir";
    static final String DATABASE = "weir";

    private final int port;
    private final Path dataDir;
    private EmbeddedPostgres postgres;

    FaultDatabase(int port) throws IOException {
        this.port = port;
        this.dataDir = Files.createTempDirectory("weir-fault-pg-");
    }

    /** Starts the server; the first start creates the cluster, the role and the database. */
    synchronized void start() throws IOException, SQLException {
        boolean fresh = postgres == null && !Files.exists(dataDir.resolve("postgresql.conf"));
        postgres = EmbeddedPostgres.builder()
                .setPort(port)
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("max_connections", "200")
                .start();
        if (fresh) {
            try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE ROLE " + ROLE + " LOGIN");
                s.execute("CREATE DATABASE " + DATABASE + " OWNER " + ROLE);
            }
        }
    }

    /** Stops the server (fast shutdown: sessions are ended, committed data is kept). */
    synchronized void stop() throws IOException {
        if (postgres != null) {
            postgres.close();
            postgres = null;
        }
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    /** The test's own connections to Weir's database, as the superuser. */
    synchronized DataSource admin() {
        if (postgres == null) {
            throw new IllegalStateException("the fault database is stopped");
        }
        return postgres.getDatabase("postgres", DATABASE);
    }

    void execute(String... statements) throws SQLException {
        try (Connection c = admin().getConnection(); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    long count(String sql) {
        return longs(sql).get(0);
    }

    String text(String sql) {
        try (Connection c = admin().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    List<Long> longs(String sql) {
        try (Connection c = admin().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            List<Long> values = new ArrayList<>();
            while (rs.next()) {
                values.add(rs.getLong(1));
            }
            return values;
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** Ends every session Weir has open; returns how many. */
    long terminateWeirBackends() {
        return count("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = '"
                + ROLE + "'");
    }

    @Override
    public void close() throws IOException {
        stop();
        try (var files = Files.walk(dataDir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
