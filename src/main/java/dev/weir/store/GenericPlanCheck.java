package dev.weir.store;

import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Whether a data source's sessions keep one generic plan per prepared statement (ADR 0034, ADR 0037). The engine
 * runs a few statements thousands of times a second, the turn above all, and the group commits run a bounded queue's
 * admission statement for every group; planning either costs as much as running it or more. Left to its default
 * choice ({@code plan_cache_mode = auto}), PostgreSQL planned the turn afresh at many executions once {@code weir.jobs}
 * had statistics (at every one when it claimed for several queues), which halved the drain, and, until the admission
 * window was written into its text (ADR 0038), the admission statement at every execution once
 * {@code weir.admission_slots} had them. The engine's and the submissions' data sources therefore open their sessions
 * with {@code plan_cache_mode} set to {@code force_generic_plan}, so that none of their statements depends on the
 * default choice; this check says so at start-up when one was configured without it.
 */
public final class GenericPlanCheck {

    /** The setting the engine's sessions are meant to run with. */
    public static final String WANTED = "force_generic_plan";

    private GenericPlanCheck() {
    }

    /** Reads {@code plan_cache_mode} on one of the data source's connections. */
    public static String of(DataSource dataSource) throws SQLException {
        return SessionSetting.of(dataSource, "plan_cache_mode");
    }

    /**
     * The warning for data source {@code name} (the engine's or the submissions', whose sessions are meant to keep
     * generic plans), if its sessions plan with {@code mode}.
     */
    public static Optional<String> advice(String name, String mode) {
        if (WANTED.equals(mode)) {
            return Optional.empty();
        }
        return Optional.of("Weir: data source " + name + " runs with plan_cache_mode = " + mode + ", so PostgreSQL may "
                + "plan its hot statements at every execution, which made drains over an analysed table about half "
                + "as fast; remove plan_cache_mode from WEIR_DB_OPTIONS or, in a server.xml of your own, start the "
                + "options of its properties.postgresql with \"-c plan_cache_mode=" + WANTED + "\" (ADR 0034, ADR "
                + "0037)");
    }
}
