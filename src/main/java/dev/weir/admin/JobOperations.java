package dev.weir.admin;

import dev.weir.api.QueueFullException;
import dev.weir.metrics.JobEvent;
import dev.weir.metrics.JobLog;
import dev.weir.metrics.WeirMetrics;
import dev.weir.store.AdmissionSlots;
import dev.weir.store.JobState;
import dev.weir.store.JobStore;
import dev.weir.store.JobView;
import dev.weir.store.JtaTransactor;
import dev.weir.store.SlotCursor;
import dev.weir.store.Sql;
import dev.weir.submit.AdmissionControl;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Logger;

/**
 * The operator actions on jobs (ADR 0021): retry, cancel, discard, and retry of every discarded job matching a
 * filter. Each runs in a transaction of its own that first locks the job; a retry that makes a job of a bounded queue
 * outstanding again takes an admission slot in that transaction or is refused like a submission.
 */
@ApplicationScoped
public class JobOperations {

    /** Discarded jobs retried per transaction by a bulk retry. */
    static final int RETRY_BATCH = 500;
    private static final Logger LOG = Logger.getLogger(JobOperations.class.getName());

    @Inject
    JtaTransactor transactor;

    @Inject
    AdmissionControl admission;

    @Inject
    WeirMetrics metrics;

    /** What a bulk retry did: jobs made available, and matching jobs left as they were (queue full, unique key). */
    public record BulkRetry(long retried, long skipped) {
    }

    public JobView retry(long id) {
        // The state the retry moved the job from, for its lifecycle line; null when it was available already.
        JobState[] from = new JobState[1];
        JobView after = transactor.inNewTransaction(sql -> {
            JobStore.Locked job = lock(sql, id);
            if (job.state() == JobState.RUNNING) {
                throw new ApiError(409, "job_running", "job " + id + " is running; cancel it first, or wait");
            }
            if (job.state() != JobState.AVAILABLE) {
                if (job.uniqueClash()) {
                    throw new ApiError(409, "unique_conflict", "job " + id + " is unique and another job holds its"
                            + " key now; retrying it would make a duplicate");
                }
                if (job.state().terminal()) {
                    admit(sql, job);
                }
                from[0] = job.state();
                JobStore.retry(sql, List.of(id));
            }
            return JobStore.get(sql, id).orElseThrow();
        });
        if (from[0] != null) {
            logged(JobEvent.OPERATOR_RETRY, after, "from", from[0].dbName());
        }
        return after;
    }

    public JobView cancel(long id) {
        JobView after = transactor.inNewTransaction(sql -> {
            JobStore.Locked job = lock(sql, id);
            if (job.state().terminal()) {
                throw new ApiError(409, "job_finished", "job " + id + " is " + job.state().dbName() + " already");
            }
            if (job.state() == JobState.RUNNING) {
                JobStore.requestCancel(sql, id);
            } else {
                JobStore.cancelNow(sql, id);
            }
            return JobStore.get(sql, id).orElseThrow();
        });
        if (after.state() == JobState.CANCELLED) {
            metrics.ended(after.queue(), after.kind(), JobEvent.CANCELLED, -1);
            logged(JobEvent.CANCELLED, after, "reason", "cancelled by an operator");
        } else {
            logged(JobEvent.CANCEL_REQUESTED, after);
        }
        return after;
    }

    public JobView discard(long id) {
        JobView after = transactor.inNewTransaction(sql -> {
            JobStore.Locked job = lock(sql, id);
            if (job.state() == JobState.RUNNING) {
                throw new ApiError(409, "job_running", "job " + id + " is running; cancel it instead");
            }
            if (job.state().terminal()) {
                throw new ApiError(409, "job_finished", "job " + id + " is " + job.state().dbName() + " already");
            }
            JobStore.discardNow(sql, id);
            return JobStore.get(sql, id).orElseThrow();
        });
        metrics.ended(after.queue(), after.kind(), JobEvent.DISCARDED, -1);
        logged(JobEvent.DISCARDED, after, "reason", "discarded by an operator");
        return after;
    }

    /** The lifecycle line of an operator's action, once its transaction committed. */
    private static void logged(JobEvent event, JobView job, String... more) {
        JobLog.log(event, job.queue(), job.kind(), job.id(), job.attempt(), more);
    }

    /**
     * Makes every discarded job of {@code queue} and {@code kind} (null: any) available, as {@link #retry} does, in
     * transactions of {@value #RETRY_BATCH} jobs, in id order. A bounded queue takes a slot per job; once one is
     * full, its remaining jobs are left discarded (counted as skipped), as are unique jobs whose key another job
     * holds. Jobs another transaction holds locked are passed over.
     */
    public BulkRetry retryDiscarded(String queue, String kind) {
        Set<String> full = new HashSet<>();
        long retried = 0;
        long skipped = 0;
        long after = 0;
        while (true) {
            long from = after;
            long[] batch = transactor.inNewTransaction(sql -> {
                List<JobStore.Locked> found = JobStore.lockDiscarded(sql, from, queue, kind, RETRY_BATCH);
                List<Long> ids = new ArrayList<>(found.size());
                for (JobStore.Locked job : found) {
                    if (job.uniqueClash() || full.contains(job.queue())) {
                        continue;
                    }
                    SlotCursor cursor = admission.cursors().get(job.queue());
                    if (cursor != null && !AdmissionSlots.take(sql, job.queue(), job.id(), cursor).admitted()) {
                        full.add(job.queue());
                        continue;
                    }
                    ids.add(job.id());
                }
                int moved = JobStore.retry(sql, ids);
                long last = found.isEmpty() ? from : found.get(found.size() - 1).id();
                return new long[] {moved, found.size() - moved, found.size(), last};
            });
            retried += batch[0];
            skipped += batch[1];
            if (batch[2] < RETRY_BATCH) {
                break;
            }
            after = batch[3];
        }
        LOG.info("Weir: bulk retry of discarded jobs (queue " + (queue == null ? "any" : queue) + ", kind "
                + (kind == null ? "any" : kind) + "): " + retried + " made available, " + skipped + " left discarded"
                + (full.isEmpty() ? "" : "; full bounded queues " + full));
        return new BulkRetry(retried, skipped);
    }

    private static JobStore.Locked lock(Sql sql, long id) {
        return JobStore.lock(sql, id).orElseThrow(() -> new ApiError(404, "job_not_found", "no job has id " + id));
    }

    /** A terminal job of a bounded queue becomes outstanding again: it needs a slot, or the retry is refused (429). */
    private void admit(Sql sql, JobStore.Locked job) {
        SlotCursor cursor = admission.cursors().get(job.queue());
        if (cursor == null) {
            return;
        }
        AdmissionSlots.Result r = AdmissionSlots.take(sql, job.queue(), job.id(), cursor);
        if (!r.admitted()) {
            throw new QueueFullException(admission.refusal(sql, r));
        }
    }
}
