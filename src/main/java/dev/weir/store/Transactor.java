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

    /**
     * Runs {@code work} with no transaction around it, so that each of its statements commits by itself: no separate
     * commit, one round trip a statement (ADR 0026). Usually {@code work} runs exactly one statement; it may run more
     * only when each of them can stand alone, as a bounded queue's admission whose every try is all or nothing does
     * (ADR 0035, amendment "a group of one bounded submission"). This default runs {@code work} in a new transaction,
     * which has the same effect at the cost of the commit's round trip.
     */
    default <T> T alone(Function<Sql, T> work) {
        return inNewTransaction(work);
    }

    /**
     * A session for one thread that runs many statements {@linkplain #alone alone}, one after another, on a
     * connection it keeps between them instead of taking one from the pool each time (ADR 0026). This default keeps
     * nothing.
     */
    default Session session() {
        return new Session() {
            @Override
            public <T> T alone(Function<Sql, T> work) {
                return Transactor.this.alone(work);
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * Statements run {@linkplain Transactor#alone alone} on a kept connection. Not thread-safe: one thread uses it.
     * A statement that fails gives the connection up (it may be broken); the next one takes a new one.
     */
    interface Session extends AutoCloseable {

        <T> T alone(Function<Sql, T> work);

        @Override
        void close();
    }
}
