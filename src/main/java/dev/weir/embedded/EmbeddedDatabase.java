package dev.weir.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Starts a PostgreSQL server inside Weir's process when no database is configured, so that the first run needs
 * no setup. It listens on 127.0.0.1 at {@code WEIR_EMBEDDED_DB_PORT} (default 19080; a second instance on the
 * same machine sets its own, or both share a database through {@code WEIR_DB_URL}) and keeps its data in
 * {@code weir-pgdata} under the server's output folder (or {@code weir.embedded.data-dir}). With {@code WEIR_DB_URL} set it does nothing.
 *
 * <p>The data source in server.xml falls back to the same address; this bean starts before any bean that
 * touches the database ({@code @DependsOn} in the runtime) and stops after them.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class EmbeddedDatabase {

    private static final Logger LOG = Logger.getLogger(EmbeddedDatabase.class.getName());

    private EmbeddedPostgres postgres;

    @PostConstruct
    void start() {
        Config config = ConfigProvider.getConfig(EmbeddedDatabase.class.getClassLoader());
        int port = port(config);
        Optional<String> url = config.getOptionalValue("WEIR_DB_URL", String.class).filter(s -> !s.isBlank());
        if (url.isPresent() && !url.get().equals(embeddedUrl(port))) {
            LOG.info(() -> "Weir: using the database at " + redact(url.get()));
            return;
        }
        Path dataDir = config.getOptionalValue("weir.embedded.data-dir", String.class).map(Path::of)
                .orElse(Path.of("weir-pgdata").toAbsolutePath());
        long began = System.nanoTime();
        try {
            postgres = EmbeddedPostgres.builder()
                    .setPort(port)
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    // A real database for a user's first run: keep PostgreSQL's durable defaults.
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("full_page_writes", "on")
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("Weir: no WEIR_DB_URL is set and the embedded PostgreSQL could not start on "
                    + "port " + port + " with data in " + dataDir + ": " + e.getMessage()
                    + " (set WEIR_DB_URL, or WEIR_EMBEDDED_DB_PORT to a free port)", e);
        }
        LOG.info(() -> "Weir: embedded PostgreSQL started on 127.0.0.1:" + port + " with data in " + dataDir + " in "
                + (System.nanoTime() - began) / 1_000_000 + " ms (set WEIR_DB_URL to use your own database)");
    }

    @PreDestroy
    void stop() {
        if (postgres != null) {
            try {
                postgres.close();
            } catch (IOException e) {
                LOG.warning(() -> "Weir: stopping the embedded PostgreSQL: " + e);
            }
        }
    }

    /** The default port; server.xml has the same default for WEIR_EMBEDDED_DB_PORT. */
    static final int DEFAULT_PORT = 19080;

    static int port(Config config) {
        return config.getOptionalValue("WEIR_EMBEDDED_DB_PORT", Integer.class).orElse(DEFAULT_PORT);
    }

    /** The URL server.xml gives the data source when WEIR_DB_URL is not set; keep the two in step. */
    static String embeddedUrl(int port) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    private static String redact(String url) {
        return url.replaceAll("password=[^&]*", "password=…");
    }
}
