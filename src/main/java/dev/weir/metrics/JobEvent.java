package dev.weir.metrics;

import dev.weir.store.Finish;
import java.util.logging.Level;

/**
 * The events of a job's life that Weir logs (one line each, {@link JobLogLine}) and counts, with the level each is
 * logged at: the happy path (submitted, started, completed) at {@code FINE}, so that it costs nothing unless asked
 * for; the rest at {@code INFO} or {@code WARNING}.
 */
public enum JobEvent {
    SUBMITTED("submitted", Level.FINE),
    STARTED("started", Level.FINE),
    COMPLETED("completed", Level.FINE),
    /** An attempt failed and the job will be tried again (retryable, or available at once). */
    FAILED("failed", Level.INFO),
    SNOOZED("snoozed", Level.INFO),
    DISCARDED("discarded", Level.WARNING),
    CANCELLED("cancelled", Level.INFO),
    RESCUED("rescued", Level.WARNING),
    DEADLINE_EXCEEDED("deadline-exceeded", Level.WARNING),
    /** The executor refused the attempt: the job is available again, the attempt given back. */
    REJECTED("rejected", Level.WARNING),
    /** An outcome arrived after its attempt was rescued or cancelled, and changed nothing. */
    IGNORED("ignored", Level.INFO),
    /** An operator made a job available again (admin API); a bulk retry logs one summary line instead. */
    OPERATOR_RETRY("operator-retry", Level.INFO),
    /** An operator asked a running job to stop (admin API): its attempt is signalled and will end cancelled. */
    CANCEL_REQUESTED("cancel-requested", Level.INFO);

    private final String label;
    private final Level level;

    JobEvent(String label, Level level) {
        this.label = label;
        this.level = level;
    }

    /** The word in the log line. */
    public String label() {
        return label;
    }

    public Level level() {
        return level;
    }

    /**
     * What an attempt's outcome means: {@code handlerRan} tells a snooze without delay (the handler ran) from an
     * executor rejection (it never started); both make the job available again without spending the attempt.
     */
    public static JobEvent of(Finish finish, boolean handlerRan) {
        return switch (finish.state()) {
            case COMPLETED -> COMPLETED;
            case DISCARDED -> DISCARDED;
            case CANCELLED -> CANCELLED;
            case RETRYABLE -> FAILED;
            case SCHEDULED -> SNOOZED;
            case AVAILABLE -> finish.refund() && finish.error() == null ? (handlerRan ? SNOOZED : REJECTED) : FAILED;
            case RUNNING -> throw new IllegalArgumentException("an outcome never leaves a job running");
        };
    }
}
