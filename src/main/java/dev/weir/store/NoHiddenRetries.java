package dev.weir.store;

import org.eclipse.persistence.config.SessionCustomizer;
import org.eclipse.persistence.sessions.DatabaseLogin;
import org.eclipse.persistence.sessions.Session;

/**
 * Turns off EclipseLink's own retries after a communication failure, for each of Weir's persistence units (ADR 0031).
 *
 * <p>By default EclipseLink, when a statement outside a transaction or the start of a transaction fails on a broken
 * connection, reconnects and tries again up to three times, sleeping five seconds whenever the reconnect fails. Inside
 * Weir that is wrong twice over: the thread that asked (the heartbeat, the completer's turn, a claim) is stuck for
 * seconds without knowing it, so an instance that is alive can look silent to the rescuer of another; and the
 * statement tried again may be a data-modifying one (a claim or a turn) whose first run committed before the
 * connection broke. Every caller in Weir already decides for itself what a failed statement means and when to try
 * again (the next maintenance tick, the completer's back-off, the dispatcher's next poll), so a failure is reported
 * at once instead.
 */
public final class NoHiddenRetries implements SessionCustomizer {

    @Override
    public void customize(Session session) {
        DatabaseLogin login = session.getLogin();
        login.setQueryRetryAttemptCount(0);
        login.setDelayBetweenConnectionAttempts(0);
    }
}
