package dev.weir.store;

import java.util.function.Function;

/** Runs work in a transaction of its own, committed when the work returns and rolled back when it throws. */
public interface Transactor {

    /**
     * Runs {@code work} in a new transaction. A statement that may commit without waiting for the disk (claims and
     * outcomes, whose loss in a database crash only runs a job again) says so itself, with
     * {@code set_config('synchronous_commit', 'off', true)}: that costs no extra round trip.
     */
    <T> T inNewTransaction(Function<Sql, T> work);
}
