package dev.weir.api;

import java.time.Duration;

/**
 * {@link JobSubmitter#submit} found no room in a bounded queue ({@code weir.queue.<q>.max-pending}). Nothing was
 * stored, and the caller's transaction is left as it was: catch this and go on, or let it roll the transaction back.
 * Use {@link JobSubmitter#trySubmit} to get the same facts as a return value instead.
 */
public class QueueFullException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Admission.Refused refusal;

    public QueueFullException(Admission.Refused refusal) {
        super(refusal.describe());
        this.refusal = refusal;
    }

    /** The refusal: queue, outstanding, limit, requested, retry-after. */
    public Admission.Refused refusal() {
        return refusal;
    }

    public String queue() {
        return refusal.queue();
    }

    public long outstanding() {
        return refusal.outstanding();
    }

    public int limit() {
        return refusal.limit();
    }

    public Duration retryAfter() {
        return refusal.retryAfter();
    }
}
