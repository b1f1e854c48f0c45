package dev.weir.submit;

import dev.weir.dispatch.WeirRuntime;
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
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Wakes the dispatchers of queues that got new jobs, once the submitting transaction has committed: this
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
    WeirRuntime runtime;

    /** Announces {@code queues} when the current transaction commits (at once if there is none). */
    @SuppressWarnings("unchecked")
    public void afterCommit(Collection<String> queues) {
        if (queues.isEmpty()) {
            return;
        }
        if (registry.getTransactionKey() == null) {
            announce(new TreeSet<>(queues));
            return;
        }
        Set<String> pending = (Set<String>) registry.getResource(KEY);
        if (pending == null) {
            Set<String> created = new TreeSet<>();
            registry.putResource(KEY, created);
            registry.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        announce(created);
                    }
                }
            });
            pending = created;
        }
        pending.addAll(queues);
    }

    private void announce(Set<String> queues) {
        var engine = runtime.engine();
        if (engine.isPresent()) {
            // Local wake-ups now; the NOTIFY for other instances goes out from the engine's broadcaster thread, so
            // this (request) thread neither waits for a session connection nor pays a round trip.
            engine.get().announce(queues);
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
