package dev.weir.dispatch;

import dev.weir.config.Periodic;
import dev.weir.config.QueueSettings;
import dev.weir.config.Retention;
import dev.weir.config.WeirSettings;
import dev.weir.metrics.JobEvent;
import dev.weir.metrics.JobLog;
import dev.weir.metrics.Submitted;
import dev.weir.metrics.WeirMetrics;
import dev.weir.store.JobState;
import dev.weir.store.JobStore;
import dev.weir.store.Transactor;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The background duties of an instance, on one thread that ticks every {@link #TICK}:
 * <ul>
 * <li>every instance: its heartbeat (every {@code heartbeat-interval}), the deadline watchdog for its own
 * attempts, and, as often as the heartbeat and only while attempts run here, a look for operators' cancel requests
 * whose notification was lost;</li>
 * <li>the leader only: making due jobs available, rescuing the attempts of silent instances and attempts far
 * past their deadline, forgetting long-dead instances, and deleting finished jobs past their retention (every
 * {@link #RETENTION_EVERY}, at most {@link #RETENTION_BATCHES} batches of {@link #BATCH} per state, so a large
 * backlog of old jobs goes over several runs and no run delays the heartbeat much), and vacuuming Weir's tables
 * when enough of their rows died ({@link Vacuumer}, on a thread of its own).</li>
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
    static final Duration RETENTION_EVERY = Duration.ofSeconds(5);
    static final int RETENTION_BATCHES = 10;
    private static final Logger LOG = Logger.getLogger(Maintenance.class.getName());
    /** An arbitrary constant naming Weir's leader lock among the database's advisory locks. */
    private static final long LEADER_LOCK = 0x5765697200000002L;

    private final WeirSettings settings;
    private final Transactor transactor;
    private final DataSource sessionDataSource;
    private final String instance;
    private final Engine engine;
    private final Thread thread;
    private final WeirMetrics metrics;
    /** Null when {@code weir.vacuum.dead-rows} is 0. */
    private final Vacuumer vacuumer;
    private volatile boolean stopping;
    private volatile boolean leader;
    private Connection leaderConnection;
    private long nextHeartbeat;
    private long nextCleanup;
    private long nextRetention;
    private long nextCancelPoll;
    /** Whether the last heartbeat was written, and since when (nanoTime) they have been written without a break. */
    private boolean inTouch;
    private long inTouchSince;

    Maintenance(WeirSettings settings, Transactor transactor, DataSource sessionDataSource, String instance,
            Engine engine, ThreadFactory threads, WeirMetrics metrics) {
        this.settings = settings;
        this.metrics = metrics;
        this.transactor = transactor;
        this.sessionDataSource = sessionDataSource;
        this.instance = instance;
        this.engine = engine;
        this.vacuumer = settings.vacuum().enabled()
                ? new Vacuumer(settings.vacuum(), transactor, sessionDataSource, threads) : null;
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
        if (vacuumer != null) {
            vacuumer.stop();
        }
        releaseLeadership();
    }

    /**
     * Writes the heartbeat now (before the first claim, so a fresh instance is never taken for dead), and tells the
     * engine whether another instance is alive: one that wrote a heartbeat within {@code rescue-after} (ADR 0040).
     */
    void heartbeat() {
        long hellos = engine.hellos();
        boolean others = transactor.inNewTransaction(
                sql -> JobStore.heartbeat(sql, instance, settings.rescueAfter().toMillis()));
        engine.othersAlive(others, hellos);
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
        safely("cancel requests", () -> {
            // The fallback for an operator's cancel whose NOTIFY did not arrive, at the heartbeat's pace.
            if (now - nextCancelPoll >= 0) {
                engine.pollCancelRequests();
                nextCancelPoll = now + settings.heartbeatInterval().toNanos();
            }
        });
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
                List<JobStore.Rescued> rescued = transactor.inNewTransaction(sql -> JobStore.rescueJobs(sql,
                        settings.rescueAfter().toMillis(), settings.heartbeatInterval().toMillis(), BATCH));
                for (JobStore.Rescued r : rescued) {
                    metrics.rescued(r.queue(), r.kind(), r.state() == JobState.DISCARDED);
                    JobLog.log(JobEvent.RESCUED, r.queue(), r.kind(), r.id(), r.attempt(), "state",
                            r.state().dbName(), "reason", r.reason());
                }
            });
            safely("periodic jobs", this::firePeriodic);
            safely("priority aging", this::age);
            safely("retention", () -> {
                if (now - nextRetention >= 0) {
                    retention();
                    nextRetention = now + RETENTION_EVERY.toNanos();
                }
            });
            if (vacuumer != null) {
                safely("vacuum", () -> vacuumer.check(now));
            }
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

    /**
     * Records every configured periodic job in the database (each instance does, at start; it is idempotent), so the
     * leader, whichever instance it is, knows each one's next fire.
     */
    void registerPeriodic() {
        ZonedDateTime now = ZonedDateTime.now();
        for (Periodic p : settings.periodic()) {
            Instant next = p.schedule().next(now.withZoneSameInstant(p.zone())).orElseThrow().toInstant();
            transactor.inNewTransaction(sql -> {
                JobStore.registerPeriodic(sql, p.name(), p.schedule().toString(), p.zone().getId(), next);
                return null;
            });
        }
    }

    /**
     * Fires the periodic jobs that are due: one job each, then the next fire after now (missed fires, while no
     * instance ran, are coalesced into this one). The fire is a compare-and-set on the due time, in the statement
     * that inserts the job, so a fire happens once even if leadership changes meanwhile.
     */
    private void firePeriodic() {
        if (settings.periodic().isEmpty()) {
            return;
        }
        Map<String, Long> due = transactor.inNewTransaction(JobStore::duePeriodic);
        for (Periodic p : settings.periodic()) {
            Long dueAt = due.get(p.name());
            if (dueAt == null) {
                continue;
            }
            long next = p.schedule().next(ZonedDateTime.now(p.zone())).orElseThrow().toEpochSecond();
            Optional<Long> id = transactor.inNewTransaction(sql -> JobStore.firePeriodic(sql, p.name(), dueAt, next,
                    p.kind(), p.queue(), p.argsJson()));
            id.ifPresent(jobId -> {
                engine.announce(List.of(p.queue()));
                Submitted.one(metrics, p.queue(), p.kind(), jobId, JobState.AVAILABLE.dbName());
                LOG.info(() -> "Weir: periodic job " + p.name() + " (" + p.schedule() + ") fired: job " + jobId
                        + " (queue " + p.queue() + ", kind " + p.kind() + ")");
            });
        }
    }

    /**
     * Priority aging, for the queues that have it: every tick, jobs waiting long enough move up one level, from
     * level 2 to 4 (so a job moves at most one level per tick), at most {@link #BATCH} per level and queue.
     */
    private void age() {
        for (QueueSettings q : settings.queues()) {
            if (q.priorityAging().isEmpty()) {
                continue;
            }
            long agingMs = q.priorityAging().get().toMillis();
            int moved = 0;
            for (int priority = 2; priority <= 4; priority++) {
                int level = priority;
                moved += transactor.inNewTransaction(sql -> JobStore.age(sql, q.name(), level, agingMs, BATCH));
            }
            if (moved > 0) {
                int n = moved;
                LOG.fine(() -> "Weir: priority aging moved " + n + " jobs of queue " + q.name() + " up a level");
            }
        }
    }

    /** Deletes finished jobs past their retention period, state by state, in bounded batches. */
    private void retention() {
        Retention r = settings.retention();
        deleteFinished(JobState.COMPLETED, r.completed());
        deleteFinished(JobState.CANCELLED, r.cancelled());
        deleteFinished(JobState.DISCARDED, r.discarded());
    }

    private void deleteFinished(JobState state, Optional<Duration> period) {
        if (period.isEmpty()) {
            return;
        }
        long olderThanMs = period.get().toMillis();
        int total = 0;
        for (int i = 0; i < RETENTION_BATCHES && !stopping; i++) {
            int deleted = transactor.inNewTransaction(sql -> JobStore.deleteFinished(sql, state, olderThanMs, BATCH));
            total += deleted;
            if (deleted < BATCH) {
                break;
            }
        }
        if (total > 0) {
            int n = total;
            LOG.fine(() -> "Weir: retention deleted " + n + " " + state.dbName() + " jobs older than " + period.get());
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
