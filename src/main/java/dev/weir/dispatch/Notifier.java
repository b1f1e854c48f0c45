package dev.weir.dispatch;

import dev.weir.store.JobStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Listens on {@link JobStore#CHANNEL} with a connection of its own and tells the dispatchers which queues got
 * jobs; on the same connection it listens on {@link JobStore#CONTROL_CHANNEL} and hands those payloads (an operator's
 * cancel of a running job, ADR 0021) to {@code onControl}. Notifications are a shortcut, not a guarantee (a pooler
 * may drop {@code LISTEN}, a reconnect misses what was sent meanwhile): every dispatcher also polls, and each time
 * listening begins (the first time too) all of them are woken once. A job notification with an empty payload names
 * no queue: another instance says it started ({@code onHello}, ADR 0040).
 */
final class Notifier {

    private static final Logger LOG = Logger.getLogger(Notifier.class.getName());

    private final DataSource dataSource;
    private final Consumer<String> onQueue;
    private final Consumer<String> onControl;
    /** Runs each time listening begins, the first time too. */
    private final Runnable onListening;
    /** Runs when another instance says it started (ADR 0040). */
    private final Runnable onHello;
    /** The database session whose job notifications are this instance's own announcements (0: none). */
    private final IntSupplier ownSession;
    private final Thread thread;
    private volatile boolean stopping;
    private volatile boolean listening;

    Notifier(DataSource dataSource, Consumer<String> onQueue, Consumer<String> onControl, Runnable onListening,
            Runnable onHello, IntSupplier ownSession, java.util.concurrent.ThreadFactory threads) {
        this.onHello = onHello;
        this.ownSession = ownSession;
        this.dataSource = dataSource;
        this.onQueue = onQueue;
        this.onControl = onControl;
        this.onListening = onListening;
        this.thread = threads.newThread(this::run);
        this.thread.setName("weir-notifier");
    }

    void start() {
        thread.start();
    }

    boolean listening() {
        return listening;
    }

    void stop() throws InterruptedException {
        stopping = true;
        thread.interrupt();
        thread.join(2000);
    }

    private void run() {
        long waitMs = 200;
        while (!stopping) {
            try (Connection c = dataSource.getConnection()) {
                PGConnection pg = c.unwrap(PGConnection.class);
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN " + JobStore.CHANNEL);
                    s.execute("LISTEN " + JobStore.CONTROL_CHANNEL);
                }
                listening = true;
                // The first time too: a pause or resume committed after the engine read the paused queues at start
                // and before this LISTEN was never heard (seen in a test: the instance stayed paused until its poll).
                onListening.run();
                waitMs = 200;
                try {
                    while (!stopping) {
                        PGNotification[] notes = pg.getNotifications(500);
                        if (notes != null) {
                            for (PGNotification note : notes) {
                                if (JobStore.CONTROL_CHANNEL.equals(note.getName())) {
                                    onControl.accept(note.getParameter());
                                } else if (note.getPID() != ownSession.getAsInt()) {
                                    // Not the echo of this instance's own announcement, whose dispatchers were woken
                                    // when it was made. An empty one names no queue: another instance started.
                                    if (note.getParameter().isEmpty()) {
                                        onHello.run();
                                    } else {
                                        onQueue.accept(note.getParameter());
                                    }
                                }
                            }
                        }
                    }
                } finally {
                    // The connection goes back to a pool: it must not keep listening there.
                    try (Statement s = c.createStatement()) {
                        s.execute("UNLISTEN *");
                    } catch (SQLException e) {
                        LOG.log(Level.FINE, "Weir: UNLISTEN on a broken connection", e);
                    }
                }
            } catch (SQLException | RuntimeException e) {
                listening = false;
                if (stopping) {
                    return;
                }
                LOG.log(Level.WARNING, "Weir: lost the notification connection; polling only until it is back (retry in "
                        + waitMs + " ms)", e);
                try {
                    Thread.sleep(waitMs);
                } catch (InterruptedException ie) {
                    return;
                }
                waitMs = Math.min(waitMs * 2, Duration.ofSeconds(10).toMillis());
            }
        }
        listening = false;
    }
}
