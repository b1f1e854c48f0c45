package dev.weir.metrics;

import dev.weir.store.JobStore;
import dev.weir.store.NewJob;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Records committed submissions: the {@code submitted} counter, once per (queue, kind) of a batch, and one
 * {@code submitted} line per job when that level is enabled. Call it after the inserting transaction committed.
 */
public final class Submitted {

    private Submitted() {
    }

    /**
     * @param jobs     the jobs as submitted
     * @param inserted what the store answered for them, in the same order; a duplicate (unique job that existed
     *                 already) is not a submission and is skipped
     */
    public static void record(WeirMetrics metrics, List<NewJob> jobs, List<JobStore.Inserted> inserted) {
        if (jobs.size() != inserted.size()) {
            throw new IllegalArgumentException(jobs.size() + " jobs but " + inserted.size() + " answers");
        }
        boolean log = JobLog.enabled(JobEvent.SUBMITTED);
        if (jobs.size() == 1) {
            one(metrics, jobs.get(0), inserted.get(0), log);
            return;
        }
        // Counted in runs of one (queue, kind), the usual batch being a single run: a map entry per job cost about
        // 7 % of a batch's server time over HTTP.
        Map<List<String>, Integer> counts = new LinkedHashMap<>();
        String queue = null;
        String kind = null;
        int run = 0;
        for (int i = 0; i < jobs.size(); i++) {
            NewJob job = jobs.get(i);
            JobStore.Inserted in = inserted.get(i);
            if (in.duplicate()) {
                continue;
            }
            if (run > 0 && !(queue.equals(job.queue()) && kind.equals(job.kind()))) {
                counts.merge(List.of(queue, kind), run, Integer::sum);
                run = 0;
            }
            queue = job.queue();
            kind = job.kind();
            run++;
            if (log) {
                line(job.kind(), in);
            }
        }
        if (run > 0) {
            counts.merge(List.of(queue, kind), run, Integer::sum);
        }
        counts.forEach((key, n) -> metrics.submitted(key.get(0), key.get(1), n));
    }

    /** One job submitted, outside a batch (a periodic job's fire, for example). */
    public static void one(WeirMetrics metrics, String queue, String kind, long id, String state) {
        metrics.submitted(queue, kind, 1);
        if (JobLog.enabled(JobEvent.SUBMITTED)) {
            JobLog.log(JobEvent.SUBMITTED, queue, kind, id, 0, "state", state);
        }
    }

    private static void one(WeirMetrics metrics, NewJob job, JobStore.Inserted in, boolean log) {
        if (in.duplicate()) {
            return;
        }
        metrics.submitted(job.queue(), job.kind(), 1);
        if (log) {
            line(job.kind(), in);
        }
    }

    private static void line(String kind, JobStore.Inserted in) {
        JobLog.log(JobEvent.SUBMITTED, in.queue(), kind, in.id(), 0, "state", in.state().dbName());
    }
}
