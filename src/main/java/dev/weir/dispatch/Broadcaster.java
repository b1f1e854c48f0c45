package dev.weir.dispatch;

import dev.weir.store.ConnectionSql;
import dev.weir.store.JobStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Tells the other instances, with {@code NOTIFY}, which queues got new jobs — from one thread of its own, on one
 * connection it keeps, so that a submitting thread never waits for a connection or a round trip: it only adds the
 * queue names to a set and unparks this thread. Whatever piles up while a {@code NOTIFY} is on its way goes out
 * together in the next one, so under load many submissions cost one statement.
 *
 * <p>A lost announcement (the database was unreachable) costs latency only: every dispatcher also polls.
 */
final class Broadcaster {

    private static final Logger LOG = Logger.getLogger(Broadcaster.class.getName());
    private static final long IDLE_PARK_NANOS = 100_000_000L;

    private final DataSource dataSource;
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean stopping;

    Broadcaster(DataSource dataSource, ThreadFactory threads) {
        this.dataSource = dataSource;
        this.thread = threads.newThread(this::run);
        this.thread.setName("weir-broadcaster");
    }

    void start() {
        thread.start();
    }

    /** Queues {@code queues} for the next {@code NOTIFY}; never blocks. */
    void announce(Collection<String> queues) {
        if (pending.addAll(queues)) {
            LockSupport.unpark(thread);
        }
    }

    /** Sends what is pending, then stops. */
    void stop() throws InterruptedException {
        stopping = true;
        LockSupport.unpark(thread);
        thread.join(5000);
    }

    private void run() {
        Connection connection = null;
        try {
            while (!stopping || !pending.isEmpty()) {
                if (pending.isEmpty()) {
                    LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                    continue;
                }
                Set<String> queues = new TreeSet<>();
                for (String q : pending) {
                    if (pending.remove(q)) {
                        queues.add(q);
                    }
                }
                try {
                    if (connection == null) {
                        connection = dataSource.getConnection();
                    }
                    JobStore.announce(new ConnectionSql(connection), queues);
                } catch (SQLException | RuntimeException e) {
                    LOG.log(Level.FINE, "Weir: could not announce new jobs in " + queues
                            + " to other instances; they will find them at their next poll", e);
                    connection = close(connection);
                    if (stopping) {
                        return;
                    }
                    LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                }
            }
        } finally {
            close(connection);
        }
    }

    private static Connection close(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                LOG.log(Level.FINE, "Weir: closing the broadcaster's connection", e);
            }
        }
        return null;
    }
}
