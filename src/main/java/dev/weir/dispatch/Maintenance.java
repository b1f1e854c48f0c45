package dev.weir.dispatch;

import dev.weir.config.WeirSettings;
import dev.weir.store.JobStore;
import dev.weir.store.Transactor;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The background duties of an instance, on one thread that ticks every {@link #TICK}:
 * <ul>
 * <li>every instance: its heartbeat (every {@code heartbeat-interval}) and the deadline watchdog for its own
 * attempts;</li>
 * <li>the leader only: making due jobs available, rescuing the attempts of silent instances and attempts far
 * past their deadline, and forgetting long-dead instances.</li>
 * </ul>
 * The leader is whoever holds a session advisory lock, on a connection kept for that alone: if that connection
 * dies the lock goes with it and another instance takes over at its next tick.
 *
 * <p>The rescuer judges other instances dead by the age of their heartbeats, which is only fair once it has itself
 * been in touch with the database for {@code rescue-after}: right after a database outage (or this instance's own
 * start) every heartbeat is old, the live instances' included, and they need a moment to write a fresh one. So the
 * rescuer waits until this instance's heartbeats have succeeded without a break for {@code rescue-after}.
 */
final class Maintenance {

    static final Duration TICK = Duration.ofMillis(500);
    static final int BATCH = 1000;
    private static final Logger LOG = Logger.getLogger(Maintenance.class.getName());
    /** An arbitrary constant naming Weir's leader lock among the database's advisory locks. */
    private static final long LEADER_LOCK = 0x5765697200000002L;

    private final WeirSettings settings;
    private final Transactor transactor;
    private final DataSource sessionDataSource;
    private final String instance;
    private final Engine engine;
    private final Thread thread;
    private volatile boolean stopping;
    private volatile boolean leader;
    private Connection leaderConnection;
    private long nextHeartbeat;
    private long nextCleanup;
    /** Whether the last heartbeat was written, and since when (nanoTime) they have been written without a break. */
    private boolean inTouch;
    private long inTouchSince;

    Maintenance(WeirSettings settings, Transactor transactor, DataSource sessionDataSource, String instance,
            Engine engine, ThreadFactory threads) {
        this.settings = settings;
        this.transactor = transactor;
        this.sessionDataSource = sessionDataSource;
        this.instance = instance;
        this.engine = engine;
        this.thread = threads.newThread(this::run);
        this.thread.setName("weir-maintenance");
    }

    void start() {
        thread.start();
    }

    boolean leader() {
        return leader;
    }

    boolean alive() {
        return thread.isAlive();
    }

    /**
     * Stops every duty. While the engine drains, the thread keeps only the heartbeat and the deadline watchdog
     * (so a draining instance is not taken for dead); the engine stops it last.
     */
    void stop() throws InterruptedException {
        stopping = true;
        thread.interrupt();
        thread.join(5000);
        releaseLeadership();
    }

    /** Writes the heartbeat now (before the first claim, so a fresh instance is never taken for dead). */
    void heartbeat() {
        transactor.inNewTransaction(sql -> {
            JobStore.heartbeat(sql, instance);
            return null;
        });
    }

    private void run() {
        while (!stopping) {
            long now = System.nanoTime();
            tick(now);
            try {
                Thread.sleep(TICK.toMillis());
            } catch (InterruptedException e) {
                if (stopping) {
                    return;
                }
            }
        }
    }

    void tick(long now) {
        safely("heartbeat", () -> {
            if (now - nextHeartbeat >= 0 || engine.draining()) {
                try {
                    heartbeat();
                } catch (RuntimeException e) {
                    inTouch = false;
                    throw e;
                }
                if (!inTouch) {
                    inTouch = true;
                    inTouchSince = now;
                }
                nextHeartbeat = now + settings.heartbeatInterval().toNanos();
            }
        });
        safely("deadline watchdog", () -> engine.enforceDeadlines(now));
        if (engine.draining()) {
            return;
        }
        safely("leadership", this::lead);
        if (leader) {
            safely("scheduler", () -> {
                int promoted;
                do {
                    promoted = transactor.inNewTransaction(sql -> JobStore.promoteDue(sql, BATCH));
                } while (promoted == BATCH && !stopping);
            });
            safely("rescuer", () -> {
                if (!inTouch || now - inTouchSince < settings.rescueAfter().toNanos()) {
                    return;   // other instances' heartbeats may be old only because this one could not see them
                }
                Map<Long, ?> rescued = transactor.inNewTransaction(sql -> JobStore.rescue(sql,
                        settings.rescueAfter().toMillis(), settings.heartbeatInterval().toMillis(), BATCH));
                if (!rescued.isEmpty()) {
                    LOG.warning(() -> "Weir: rescued " + rescued.size() + " jobs whose attempt nobody will finish: "
                            + rescued);
                }
            });
            safely("instance clean-up", () -> {
                if (now - nextCleanup >= 0) {
                    transactor.inNewTransaction(sql -> {
                        JobStore.deleteInstances(sql, "", Duration.ofDays(1).toMillis());
                        return null;
                    });
                    nextCleanup = now + Duration.ofMinutes(10).toNanos();
                }
            });
        }
    }

    private void lead() throws SQLException {
        if (leaderConnection != null) {
            if (leaderConnection.isValid(2)) {
                return;
            }
            releaseLeadership();
        }
        Connection c = sessionDataSource.getConnection();
        boolean won = false;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT pg_try_advisory_lock(" + LEADER_LOCK + ")")) {
            won = rs.next() && rs.getBoolean(1);
        } finally {
            if (won) {
                leaderConnection = c;
                leader = true;
                LOG.info(() -> "Weir: instance " + instance + " leads maintenance (scheduler, rescuer)");
            } else {
                c.close();
            }
        }
    }

    private void releaseLeadership() {
        leader = false;
        if (leaderConnection != null) {
            // The connection goes back to a pool, and a session lock would go with it: unlock first.
            try (Statement s = leaderConnection.createStatement()) {
                s.execute("SELECT pg_advisory_unlock(" + LEADER_LOCK + ")");
            } catch (SQLException e) {
                LOG.log(Level.FINE, "Weir: unlocking on a broken leader connection (the lock died with it)", e);
            }
            try {
                leaderConnection.close();
            } catch (SQLException e) {
                LOG.log(Level.FINE, "Weir: closing the leader connection", e);
            }
            leaderConnection = null;
        }
    }

    private interface Duty {
        void run() throws Exception;
    }

    private void safely(String what, Duty duty) {
        try {
            duty.run();
        } catch (Exception e) {
            if (what.equals("leadership")) {
                releaseLeadership();
            }
            LOG.log(Level.WARNING, "Weir: maintenance step '" + what + "' failed; trying again next tick", e);
        }
    }
}
