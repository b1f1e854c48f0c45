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
import org.postgresql.PGConnection;

/**
 * Tells the other instances, with {@code NOTIFY}, which queues got new jobs — from one thread of its own, on one
 * connection it keeps, so that a submitting thread never waits for a connection or a round trip: it only adds the
 * queue names to a set and unparks this thread. Whatever piles up while a {@code NOTIFY} is on its way, and for
 * at least {@link #SPACING_NANOS} after it, goes out together in the next one, so under load many submissions cost
 * one statement (without the spacing, 16 submitting threads cost about one {@code NOTIFY}, and one commit, for every
 * submission but the fourth). An idle queue's first announcement goes out at once.
 *
 * <p>A lost announcement (the database was unreachable) costs latency only: every dispatcher also polls.
 *
 * <p>This instance's own dispatchers were woken directly; {@link #backendPid()} lets its notifier recognise the echo
 * of these announcements and skip it, so that a submission wakes a local dispatcher once, not twice.
 *
 * <p>Announcements go out only while another instance is alive (ADR 0040): an instance alone would pay a statement
 * and a commit, and its own notifier's wake-up, for every few submissions, to tell nobody. Each heartbeat says whether
 * another instance wrote one within {@code rescue-after} ({@link #others(boolean, long)}); an instance that starts
 * says so at once with a {@linkplain #hello() hello}, an empty notification its first statement sends, so that those
 * already running do not wait for their next heartbeat to learn of it. Until the first heartbeat, it sends.
 */
final class Broadcaster {

    private static final Logger LOG = Logger.getLogger(Broadcaster.class.getName());
    private static final long IDLE_PARK_NANOS = 100_000_000L;
    /** The least time between two announcements: what another instance may wait longer for a job under load. */
    static final long SPACING_NANOS = 1_000_000L;

    private final DataSource dataSource;
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean stopping;
    /** The database session the announcements go out on; 0 while there is none. */
    private volatile int backendPid;
    /** Whether another instance may listen. Written under {@code this}, with {@link #hellos}. */
    private volatile boolean others = true;
    /** Hellos heard from instances that started, so far. */
    private long hellos;

    Broadcaster(DataSource dataSource, ThreadFactory threads) {
        this.dataSource = dataSource;
        this.thread = threads.newThread(this::run);
        this.thread.setName("weir-broadcaster");
    }

    void start() {
        thread.start();
    }

    /** Queues {@code queues} for the next {@code NOTIFY}, unless no other instance is alive; never blocks. */
    void announce(Collection<String> queues) {
        if (others && pending.addAll(queues)) {
            LockSupport.unpark(thread);
        }
    }

    /** Whether announcements go out now: another instance is alive, or none has been looked for yet. */
    boolean others() {
        return others;
    }

    /** Another instance said it started: announcements go out from now on. */
    synchronized void hello() {
        hellos++;
        others = true;
    }

    /** The hellos heard so far. */
    synchronized long hellos() {
        return hellos;
    }

    /**
     * What a heartbeat found: whether another instance is alive. A hello heard since the heartbeat began, when
     * {@code hellosBefore} had been, came from an instance it may have missed: announcements go on then.
     */
    synchronized void others(boolean alive, long hellosBefore) {
        if (alive || hellos == hellosBefore) {
            others = alive;
        }
    }

    /** The process id of the database session that sends the announcements; 0 while there is none. */
    int backendPid() {
        return backendPid;
    }

    /** Sends what is pending, then stops. */
    void stop() throws InterruptedException {
        stopping = true;
        LockSupport.unpark(thread);
        thread.join(5000);
    }

    private void run() {
        Connection connection = null;
        long sent = System.nanoTime() - SPACING_NANOS;
        try {
            connection = sayHello();
            while (!stopping || !pending.isEmpty()) {
                if (pending.isEmpty()) {
                    LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                    continue;
                }
                long early = sent + SPACING_NANOS - System.nanoTime();
                if (early > 0 && !stopping) {
                    LockSupport.parkNanos(this, early);
                    continue;
                }
                sent = System.nanoTime();
                Set<String> queues = new TreeSet<>();
                for (String q : pending) {
                    if (pending.remove(q)) {
                        queues.add(q);
                    }
                }
                try {
                    if (connection == null) {
                        connection = connect();
                    }
                    JobStore.announce(new ConnectionSql(connection), queues);
                } catch (SQLException | RuntimeException e) {
                    LOG.log(Level.FINE, "Weir: could not announce new jobs in " + queues
                            + " to other instances; they will find them at their next poll", e);
                    connection = disconnect(connection);
                    if (stopping) {
                        return;
                    }
                    LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                }
            }
        } finally {
            disconnect(connection);
        }
    }

    /**
     * Tells the instances already running that this one started (an empty notification, {@link JobStore#hello});
     * answers the connection, or null when it could not: they learn of this instance at their next heartbeat then.
     */
    private Connection sayHello() {
        Connection connection = null;
        try {
            connection = connect();
            JobStore.hello(new ConnectionSql(connection));
            return connection;
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "Weir: could not tell the other instances that this one started; they will learn"
                    + " of it at their next heartbeat", e);
            return disconnect(connection);
        }
    }

    /** A connection for the announcements; its session's process id is what the notifier skips as an echo. */
    private Connection connect() throws SQLException {
        Connection c = dataSource.getConnection();
        try {
            backendPid = c.unwrap(PGConnection.class).getBackendPID();
            return c;
        } catch (SQLException | RuntimeException e) {
            disconnect(c);
            throw e;
        }
    }

    /** Closes the announcements' connection (if any): there is no session to skip the echo of until the next. */
    private Connection disconnect(Connection c) {
        backendPid = 0;
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
