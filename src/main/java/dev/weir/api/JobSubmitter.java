package dev.weir.api;

import java.util.List;

/**
 * Submits jobs. Inject it ({@code @Inject JobSubmitter submitter}) and call it inside your own JTA transaction
 * when the job belongs to a change of yours: the job becomes visible when that transaction commits and leaves
 * nothing behind when it rolls back. Outside a transaction the job is stored when the call returns; calls made from
 * several threads at the same moment share one commit.
 *
 * <p>Every method validates before it writes: an unknown queue throws {@link UnknownQueueException}, bad
 * options or arguments throw {@link InvalidJobException}; in both cases nothing is stored.
 *
 * <p>A queue with {@code weir.queue.<q>.max-pending} set admits a submission only if its outstanding jobs (scheduled,
 * available, running, retryable) plus the new ones stay within that bound; otherwise nothing is stored, at once.
 * The {@code trySubmit} methods answer that as an {@link Admission}; {@code submit} and {@code submitAll} throw
 * {@link QueueFullException} carrying the same facts. Neither ever waits for room, nor for another submitter's
 * transaction. A submission that rolls back gives its room back when it rolls back.
 */
public interface JobSubmitter {

    /** Submits one job with default options; returns its id. */
    default <A> long submit(JobKind<A> kind, A args) {
        return submit(kind, args, JobOptions.defaults());
    }

    /**
     * Submits one job; returns its id.
     *
     * @throws QueueFullException when the job's queue is bounded and has no room; nothing is stored
     */
    <A> long submit(JobKind<A> kind, A args, JobOptions options);

    /**
     * Submits one job whose arguments are already JSON (an object, or {@code null} for none). Used by the REST
     * API and by callers that do not share the handler's argument type.
     */
    long submitJson(String kind, String argsJson, JobOptions options);

    /**
     * Submits every job of the list, all or nothing, in one statement per bounded queue (one in all when no queue
     * of the list is bounded); returns the ids in the list's order.
     *
     * @throws QueueFullException when a bounded queue has no room for its share of the list; nothing is stored
     */
    List<Long> submitAll(List<? extends JobRequest<?>> requests);

    /** Like {@link #submit(JobKind, Object)}, but a full queue is an answer, not an exception. */
    default <A> Admission trySubmit(JobKind<A> kind, A args) {
        return trySubmit(kind, args, JobOptions.defaults());
    }

    /** Like {@link #submit(JobKind, Object, JobOptions)}, but a full queue is an answer, not an exception. */
    default <A> Admission trySubmit(JobKind<A> kind, A args, JobOptions options) {
        return trySubmitAll(List.of(JobRequest.of(kind, args, options)));
    }

    /** Like {@link #submitJson(String, String, JobOptions)}, but a full queue is an answer, not an exception. */
    Admission trySubmitJson(String kind, String argsJson, JobOptions options);

    /**
     * Like {@link #submitAll(List)}, but a full queue is an answer, not an exception: admitted with every id, or
     * refused with nothing stored.
     */
    Admission trySubmitAll(List<? extends JobRequest<?>> requests);
}
