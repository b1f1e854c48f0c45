package dev.weir.submit;

import dev.weir.dispatch.RunningEngine;
import dev.weir.metrics.Submitted;
import dev.weir.metrics.WeirMetrics;
import dev.weir.store.NewJob;
import dev.weir.store.ConnectionSql;
import dev.weir.store.JobStore;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Wakes the dispatchers of queues that got new jobs, and records the jobs as submitted (metrics, lifecycle log), once
 * the submitting transaction has committed. Wakes this
 * instance's at once, other instances' through {@code NOTIFY}, sent by the engine's broadcaster thread (or, before
 * the engine has started, on a session connection of its own).
 *
 * <p>Why not {@code NOTIFY} in the submitting transaction: PostgreSQL refuses to {@code PREPARE} a transaction that
 * executed {@code NOTIFY}, so a JTA transaction with a second resource (two-phase commit) would fail. A rolled-back
 * submission announces nothing; a lost announcement only costs latency, since every dispatcher also polls.
 */
@ApplicationScoped
public class Announcer {

    private static final Logger LOG = Logger.getLogger(Announcer.class.getName());
    private static final Object KEY = Announcer.class;

    @Resource
    TransactionSynchronizationRegistry registry;

    @Resource(lookup = "jdbc/weir-session")
    DataSource session;

    @Inject
    RunningEngine engine;

    @Inject
    WeirMetrics metrics;

    /** Announces {@code queues} when the current transaction commits (at once if there is none). */
    public void afterCommit(Collection<String> queues) {
        if (queues.isEmpty()) {
            return;
        }
        Announcements p = pending();
        if (p == null) {
            announce(new TreeSet<>(queues));
        } else {
            p.queues.addAll(queues);
        }
    }

    /**
     * Records {@code jobs} as submitted (metrics and lifecycle lines, {@link Submitted}) when the current transaction
     * commits (at once if there is none); a rolled-back submission was never there.
     *
     * @param inserted the store's answer for each job, in the same order
     */
    public void submittedOnCommit(List<NewJob> jobs, List<JobStore.Inserted> inserted) {
        if (jobs.isEmpty()) {
            return;
        }
        Announcements p = pending();
        if (p == null) {
            Submitted.record(metrics, jobs, inserted);
        } else {
            p.jobs.addAll(jobs);
            p.inserted.addAll(inserted);
        }
    }

    /**
     * Announces and records what {@code later} gathered when the current transaction commits (at once if there is
     * none): for a caller that ran its statements in a transaction of its own and calls this after the commit.
     */
    public void onCommit(Announcements later) {
        afterCommit(later.queues);
        submittedOnCommit(later.jobs, later.inserted);
    }

    /** What the current transaction will announce and record on commit; null when there is no transaction. */
    private Announcements pending() {
        if (registry.getTransactionKey() == null) {
            return null;
        }
        Announcements pending = (Announcements) registry.getResource(KEY);
        if (pending == null) {
            Announcements created = new Announcements();
            registry.putResource(KEY, created);
            registry.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        if (!created.queues.isEmpty()) {
                            announce(created.queues);
                        }
                        if (!created.jobs.isEmpty()) {
                            Submitted.record(metrics, created.jobs, created.inserted);
                        }
                    }
                }
            });
            pending = created;
        }
        return pending;
    }

    /** The queues to announce and the jobs to record once a transaction commits. */
    public static final class Announcements {
        final Set<String> queues = new TreeSet<>();
        final List<NewJob> jobs = new ArrayList<>();
        final List<JobStore.Inserted> inserted = new ArrayList<>();

        /** Queues that got available jobs. */
        public void available(Collection<String> names) {
            queues.addAll(names);
        }

        /** Jobs stored, with the store's answer for each, in the same order. */
        public void submitted(List<NewJob> stored, List<JobStore.Inserted> answers) {
            jobs.addAll(stored);
            inserted.addAll(answers);
        }
    }

    private void announce(Set<String> queues) {
        var running = engine.get();
        if (running.isPresent()) {
            // Local wake-ups now; the NOTIFY for other instances goes out from the engine's broadcaster thread, so
            // this (request) thread neither waits for a session connection nor pays a round trip.
            running.get().announce(queues);
            return;
        }
        try (Connection c = session.getConnection()) {
            JobStore.announce(new ConnectionSql(c), queues);
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "Weir: could not announce new jobs in " + queues
                    + " to other instances; they will find them at their next poll", e);
        }
    }
}
