package dev.weir.dispatch;

import dev.weir.config.Vacuum;
import dev.weir.store.ConnectionSql;
import dev.weir.store.JobStore;
import dev.weir.store.JobStore.TableStats;
import dev.weir.store.Transactor;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The maintenance leader's vacuum of Weir's own tables (ADR 0027). At each of the leader's ticks it reads the
 * tables' statistics and asks its {@link VacuumPolicy} whether one is due; a due table is vacuumed on a thread of
 * its own (a vacuum of a large table may take a while, and the tick must not wait), on a connection outside any
 * transaction, one table at a time. {@code SKIP_LOCKED}: a table another vacuum holds is passed over, never waited
 * for.
 */
final class Vacuumer {

    private static final Logger LOG = Logger.getLogger(Vacuumer.class.getName());

    private final Transactor transactor;
    private final DataSource dataSource;
    private final ThreadFactory threads;
    private final VacuumPolicy policy;
    private Thread running;
    private volatile Statement statement;

    Vacuumer(Vacuum settings, Transactor transactor, DataSource dataSource, ThreadFactory threads) {
        this.transactor = transactor;
        this.dataSource = dataSource;
        this.threads = threads;
        this.policy = new VacuumPolicy(settings.deadRows(), settings.minInterval());
    }

    /** Starts the vacuum of a due table, unless one is under way; called by the leader's tick. */
    synchronized void check(long now) {
        if (running != null && running.isAlive()) {
            return;
        }
        List<TableStats> stats = transactor.inNewTransaction(JobStore::tableStats);
        Optional<String> due = policy.due(stats, now);
        if (due.isEmpty()) {
            return;
        }
        TableStats before = stats.stream().filter(s -> s.table().equals(due.get())).findFirst().orElseThrow();
        running = threads.newThread(() -> vacuum(before));
        running.setName("weir-vacuum");
        running.setDaemon(true);
        running.start();
    }

    private void vacuum(TableStats before) {
        long started = System.nanoTime();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);   // VACUUM cannot run inside a transaction block
            String warnings;
            try (Statement s = c.createStatement()) {
                statement = s;
                s.execute("VACUUM (SKIP_LOCKED) weir." + quoted(before.table()));
                warnings = warnings(s.getWarnings());
            } finally {
                statement = null;
            }
            TableStats after = JobStore.tableStats(new ConnectionSql(c)).stream()
                    .filter(s -> s.table().equals(before.table())).findFirst().orElseThrow();
            long ended = System.nanoTime();
            report(before, after, warnings, (ended - started) / 1_000_000, recorded(before, after, ended));
        } catch (SQLException | RuntimeException e) {
            Recorded r = recorded(before, before, System.nanoTime());
            LOG.log(Level.WARNING, "Weir: VACUUM weir." + before.table() + " failed; next try in " + r.next(), e);
        }
    }

    /** What the policy made of a vacuum: whether it worked, and the table's wait before the next one. */
    private record Recorded(boolean worked, Duration next) {
    }

    /** Tells the policy how a vacuum went. */
    private synchronized Recorded recorded(TableStats before, TableStats after, long now) {
        boolean worked = policy.vacuumed(before, after, now);
        return new Recorded(worked, policy.interval(before.table()));
    }

    private static void report(TableStats before, TableStats after, String warnings, long ms, Recorded r) {
        Duration next = r.next();
        if (after.vacuums() <= before.vacuums()) {
            LOG.info(() -> "Weir: VACUUM weir." + before.table() + " did not run (" + warnings + "); next try in "
                    + next);
        } else if (!r.worked()) {
            LOG.info(() -> "Weir: VACUUM weir." + before.table() + " removed few dead rows (" + before.deadRows()
                    + " before, " + after.deadRows() + " after, " + ms + " ms): an old transaction or a replication "
                    + "slot still sees them; next try in " + next);
        } else {
            LOG.fine(() -> "Weir: VACUUM weir." + before.table() + " in " + ms + " ms: " + before.deadRows()
                    + " dead rows before, " + after.deadRows() + " after; " + before.inserted()
                    + " rows inserted since the vacuum before");
        }
    }

    /** Cancels a vacuum under way and waits a little for its thread; the leader's tick stops calling first. */
    void stop() throws InterruptedException {
        Thread t;
        synchronized (this) {
            t = running;
        }
        if (t == null) {
            return;
        }
        Statement s = statement;
        if (s != null) {
            try {
                s.cancel();
            } catch (SQLException e) {
                LOG.log(Level.FINE, "Weir: cancelling a vacuum under way", e);
            }
        }
        t.join(5000);
    }

    private static String warnings(SQLWarning w) {
        StringBuilder text = new StringBuilder();
        for (; w != null; w = w.getNextWarning()) {
            text.append(text.isEmpty() ? "" : "; ").append(w.getMessage());
        }
        return text.isEmpty() ? "no warning" : text.toString();
    }

    private static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
