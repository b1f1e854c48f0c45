package dev.weir.store;

import java.sql.SQLException;

/**
 * What a failed statement that ran on its own (auto-commit, {@link Transactor#alone}) left behind. Such a statement
 * commits when it ends, so its failure is either a refusal by the database, after which nothing of it is stored, or a
 * lost answer, after which nobody knows (ADR 0035).
 */
public final class SqlFailures {

    private SqlFailures() {
    }

    /**
     * Whether {@code failure} is the database's refusal of the statement, so that its implicit transaction rolled
     * back and nothing of it is stored: an {@link SQLException} in the cause chain whose SQLState the server sent,
     * other than a connection failure (class {@code 08}) or the server going away (any {@code 57P} state: the
     * session ends, and the answer may have been lost after the commit). Anything else, including an exception with
     * no SQLException behind it, may have come after the commit: false.
     */
    public static boolean rolledBack(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 32; t = t.getCause(), depth++) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                return state != null && state.length() == 5 && !state.startsWith("08") && !state.startsWith("57P");
            }
        }
        return false;
    }
}
