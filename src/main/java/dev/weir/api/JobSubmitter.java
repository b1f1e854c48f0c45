package dev.weir.api;

import java.util.List;

/**
 * Submits jobs. Inject it ({@code @Inject JobSubmitter submitter}) and call it inside your own JTA transaction
 * when the job belongs to a change of yours: the job becomes visible when that transaction commits and leaves
 * nothing behind when it rolls back. Outside a transaction each call commits on its own.
 *
 * <p>Every method validates before it writes: an unknown queue throws {@link UnknownQueueException}, bad
 * options or arguments throw {@link InvalidJobException}; in both cases nothing is stored.
 */
public interface JobSubmitter {

    /** Submits one job with default options; returns its id. */
    default <A> long submit(JobKind<A> kind, A args) {
        return submit(kind, args, JobOptions.defaults());
    }

    /** Submits one job; returns its id. */
    <A> long submit(JobKind<A> kind, A args, JobOptions options);

    /**
     * Submits one job whose arguments are already JSON (an object, or {@code null} for none). Used by the REST
     * API and by callers that do not share the handler's argument type.
     */
    long submitJson(String kind, String argsJson, JobOptions options);

    /** Submits every job of the list, all or nothing, in one statement; returns the ids in the list's order. */
    List<Long> submitAll(List<? extends JobRequest<?>> requests);
}
