package dev.weir.store;

import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Whether the engine's sessions let the planner choose a sequential scan (ADR 0046). They keep one generic plan per
 * statement (ADR 0034), made from the size PostgreSQL believes a table has at that moment; made while
 * {@code weir.jobs} was empty, the turn's plan read the whole table twice at every turn, 5–220 ms a turn, until the
 * leader's vacuum had it planned again. The engine's data source therefore opens its sessions with
 * {@code enable_seqscan} off; this check says so at start-up when it was configured without it (a server.xml of one's
 * own, or an operator's {@code -c enable_seqscan=on}).
 */
public final class SequentialScanCheck {

    /** The setting the engine's sessions are meant to run with. */
    public static final String WANTED = "off";

    private SequentialScanCheck() {
    }

    /** Reads {@code enable_seqscan} on one of the data source's connections. */
    public static String of(DataSource dataSource) throws SQLException {
        return SessionSetting.of(dataSource, "enable_seqscan");
    }

    /** The warning for data source {@code name} (the engine's), if its sessions run with {@code enable_seqscan}. */
    public static Optional<String> advice(String name, String enableSeqscan) {
        if (WANTED.equals(enableSeqscan)) {
            return Optional.empty();
        }
        return Optional.of("Weir: data source " + name + " runs with enable_seqscan = " + enableSeqscan + ", so a "
                + "plan it makes while weir.jobs is empty (a new deployment, a truncated table) may read the whole "
                + "table at every turn until PostgreSQL plans it again, which cost up to 220 ms a turn; remove "
                + "enable_seqscan from WEIR_DB_OPTIONS or, in a server.xml of your own, put \"-c enable_seqscan="
                + WANTED + "\" after plan_cache_mode in the options of its properties.postgresql (ADR 0046)");
    }
}
