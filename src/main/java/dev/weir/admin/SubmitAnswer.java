package dev.weir.admin;

import dev.weir.store.JobStore;
import java.util.List;

/**
 * The bodies of a submission's answers (DESIGN §5), written as JSON text directly: {@code {"id", "state"}} for one
 * job, with {@code "duplicate": true} when a unique job answered an existing one, and {@code {"ids", "duplicates"?}}
 * for a batch. They hold only numbers and job state names ({@code [a-z_]+}), so nothing needs escaping; written this
 * way the answer skips building a JSON-P value and the provider's writer (7 % of a single submission's request-thread
 * samples in a flight recording; ADR 0028, amendment "answers as text").
 */
public final class SubmitAnswer {

    private SubmitAnswer() {
    }

    /** {@code {"id":…,"state":"…"}}, with {@code ,"duplicate":true} when the job existed already. */
    public static String one(JobStore.Inserted job) {
        StringBuilder b = new StringBuilder(64).append("{\"id\":").append(job.id())
                .append(",\"state\":\"").append(job.state().dbName()).append('"');
        if (job.duplicate()) {
            b.append(",\"duplicate\":true");
        }
        return b.append('}').toString();
    }

    /** {@code {"ids":[…]}} in the batch's order, with {@code "duplicates":[…]} when any job existed already. */
    public static String batch(List<JobStore.Inserted> jobs) {
        StringBuilder b = new StringBuilder(16 + 12 * jobs.size()).append("{\"ids\":[");
        boolean anyDuplicate = false;
        for (int i = 0; i < jobs.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(jobs.get(i).id());
            anyDuplicate |= jobs.get(i).duplicate();
        }
        b.append(']');
        if (anyDuplicate) {
            // Unique jobs that existed already (DESIGN §7a): their ids are in "ids" too, in the batch's order.
            b.append(",\"duplicates\":[");
            boolean first = true;
            for (JobStore.Inserted job : jobs) {
                if (job.duplicate()) {
                    b.append(first ? "" : ",").append(job.id());
                    first = false;
                }
            }
            b.append(']');
        }
        return b.append('}').toString();
    }
}
