package dev.weir.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Brings the {@code weir} schema up to date at start-up. The migrations are listed in
 * {@code db/migrations.txt} (no class-path scanning, which is fragile inside application-server archives) and
 * applied in order, all in one transaction that first takes a transaction-scoped advisory lock: instances that
 * start together wait for each other, and the second finds the work done. Applied versions are kept in
 * {@code weir.schema_version}.
 */
public final class Migrator {

    private static final Logger LOG = Logger.getLogger(Migrator.class.getName());
    /** An arbitrary constant that names Weir's migration lock among the database's advisory locks. */
    private static final long LOCK_KEY = 0x5765697200000001L;

    private Migrator() {
    }

    record Migration(int version, String file) {
    }

    /** Applies every migration not applied yet; returns how many it applied. */
    public static int migrate(DataSource dataSource) throws SQLException {
        List<Migration> migrations = list();
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SELECT pg_advisory_xact_lock(" + LOCK_KEY + ")");
                s.execute("CREATE SCHEMA IF NOT EXISTS weir");
                s.execute("CREATE TABLE IF NOT EXISTS weir.schema_version ("
                        + "version integer PRIMARY KEY, file text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
                int current;
                try (ResultSet rs = s.executeQuery("SELECT coalesce(max(version), 0) FROM weir.schema_version")) {
                    rs.next();
                    current = rs.getInt(1);
                }
                int applied = 0;
                for (Migration m : migrations) {
                    if (m.version() <= current) {
                        continue;
                    }
                    s.execute(read("db/" + m.file()));
                    try (PreparedStatement ps = c.prepareStatement(
                            "INSERT INTO weir.schema_version (version, file) VALUES (?, ?)")) {
                        ps.setInt(1, m.version());
                        ps.setString(2, m.file());
                        ps.executeUpdate();
                    }
                    LOG.info(() -> "Weir schema: applied migration " + m.version() + " (" + m.file() + ")");
                    applied++;
                }
                c.commit();
                return applied;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(autoCommit);
            }
        }
    }

    static List<Migration> list() {
        List<Migration> migrations = new ArrayList<>();
        int previous = 0;
        for (String line : read("db/migrations.txt").split("\n")) {
            String entry = line.strip();
            if (entry.isEmpty() || entry.startsWith("#")) {
                continue;
            }
            String[] parts = entry.split("\\s+");
            int version = Integer.parseInt(parts[0]);
            if (version != previous + 1) {
                throw new IllegalStateException("db/migrations.txt: version " + version + " follows " + previous);
            }
            migrations.add(new Migration(version, parts[1]));
            previous = version;
        }
        return migrations;
    }

    private static String read(String resource) {
        ClassLoader loader = Migrator.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            StringBuilder text = new StringBuilder();
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                reader.lines().forEach(l -> text.append(l).append('\n'));
            }
            return text.toString();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
    }
}
