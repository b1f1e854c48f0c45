package dev.weir.api;

/**
 * What a handler knows about the attempt it runs.
 *
 * @param <A> the arguments' type
 */
public interface JobContext<A> {

    long id();

    String kind();

    String queue();

    /** This attempt's number, starting at 1. */
    int attempt();

    int maxAttempts();

    /** The decoded arguments. */
    A args();

    /**
     * True once the attempt should stop: cancelled by an operator, past its deadline, or abandoned at
     * shutdown. Whatever the handler returns after that is ignored.
     */
    boolean isCancelled();

    /** Throws {@link CancelledException} when {@link #isCancelled()} is true. */
    default void throwIfCancelled() {
        if (isCancelled()) {
            throw new CancelledException(id());
        }
    }

    /** Thrown by {@link #throwIfCancelled()}. */
    final class CancelledException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public CancelledException(long jobId) {
            super("job " + jobId + " was asked to stop");
        }
    }
}
