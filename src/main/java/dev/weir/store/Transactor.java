package dev.weir.store;

import java.util.function.Function;

/** Runs work in a transaction of its own, committed when the work returns and rolled back when it throws. */
public interface Transactor {

    /**
     * Runs {@code work} in a new transaction. {@code relaxedDurability} lets the commit return before its WAL
     * reaches disk ({@code synchronous_commit = off}): used for claims and outcomes, whose loss in a database
     * crash only means a job runs again (at-least-once), never for submissions.
     */
    <T> T inNewTransaction(boolean relaxedDurability, Function<Sql, T> work);
}
