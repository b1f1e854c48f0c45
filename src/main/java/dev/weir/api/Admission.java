package dev.weir.api;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The answer of {@link JobSubmitter#trySubmit}: the jobs were admitted, or the queue had no room for them and nothing
 * was stored. Only a queue with {@code weir.queue.<q>.max-pending} set ever refuses; a refusal is an ordinary answer,
 * given at once, never after waiting.
 *
 * <pre>{@code
 * Admission a = jobs.trySubmit(Report.KIND, args, JobOptions.defaults().queue("reports"));
 * if (a instanceof Admission.Refused refused) {
 *     return tryAgainLater(refused.retryAfter());   // don't spin: the room comes back as jobs finish
 * }
 * long id = a.ids().get(0);
 * }</pre>
 */
public sealed interface Admission permits Admission.Admitted, Admission.Refused {

    /** Whether the jobs were stored (they become visible when the submitting transaction commits). */
    boolean admitted();

    /** The ids of the admitted jobs in the order they were submitted; empty for a refusal. */
    List<Long> ids();

    /** Every job was stored. */
    record Admitted(List<Long> ids) implements Admission {
        public Admitted {
            ids = List.copyOf(ids);
        }

        @Override
        public boolean admitted() {
            return true;
        }
    }

    /**
     * Nothing was stored: the queue's outstanding jobs plus this submission would exceed its bound.
     *
     * @param queue       the bounded queue that had no room (for a batch, the first one that had none)
     * @param outstanding the queue's outstanding jobs as the refusal saw them, submissions in open transactions
     *                    included
     * @param limit       the queue's {@code max-pending}
     * @param requested   how many jobs of this submission were for that queue
     * @param retryAfter  a suggestion, from the queue's recent completion rate, of when the room may be there; at
     *                    least one second
     */
    record Refused(String queue, long outstanding, int limit, int requested, Duration retryAfter)
            implements Admission {
        public Refused {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(retryAfter, "retryAfter");
        }

        @Override
        public boolean admitted() {
            return false;
        }

        @Override
        public List<Long> ids() {
            return List.of();
        }

        /** One line for logs and error messages. */
        public String describe() {
            return "queue '" + queue + "' is full: " + outstanding + " of " + limit + " outstanding jobs, " + requested
                    + " more do not fit; try again in about " + retryAfter.toSeconds() + " s";
        }
    }
}
