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

    /**
     * Records this attempt's progress at once (its own short transaction), for operators to see and for a later
     * attempt to resume from. Call it when something worth keeping happened, not in a tight loop.
     *
     * @return false when the attempt no longer owns the job (it was rescued or ended): nothing was written
     * @throws IllegalArgumentException if the checkpoint is not JSON
     * @throws RuntimeException         if the database cannot be reached (the handler may carry on without it)
     */
    boolean progress(Progress progress);

    /**
     * The checkpoint last recorded for this job, by this attempt or an earlier one (JSON), if any: where a retry can
     * resume.
     */
    java.util.Optional<String> checkpoint();

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
