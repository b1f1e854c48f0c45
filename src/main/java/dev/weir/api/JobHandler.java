package dev.weir.api;

/**
 * Runs the jobs of one kind. Implementations are CDI beans (for example {@code @ApplicationScoped}); Weir
 * discovers every bean of this type at start-up, and two handlers for one kind stop the deployment.
 *
 * <p>A handler is called on a managed thread, outside any transaction, once per attempt. What it returns
 * decides the job's next state (see {@link Outcome}); an exception, or an {@link Error}, counts as
 * {@link Outcome#fail(String)} with the exception as the error text. Because delivery is at-least-once (a
 * crash after the work but before its outcome is stored runs the job again), handlers should be idempotent.
 *
 * <p>A long-running handler should look at {@link JobContext#isCancelled()} now and then: it turns true when an
 * operator cancels the job, when the attempt passes its deadline, or when the server stops and the drain
 * time runs out. The worker thread is interrupted at the same moment.
 *
 * @param <A> the arguments' type
 */
public interface JobHandler<A> {

    /** The kind this handler runs. */
    JobKind<A> kind();

    /** Runs one attempt of a job. */
    Outcome handle(JobContext<A> job) throws Exception;
}
