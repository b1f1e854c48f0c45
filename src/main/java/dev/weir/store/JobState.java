package dev.weir.store;

import java.util.Locale;

/**
 * The states of a job; their lower-case names are stored in {@code weir.jobs.state} and are part of Weir's
 * contract. Each state names what moves a job out of it.
 */
public enum JobState {
    /** Waits for its run-at; the leader's scheduler makes it {@link #AVAILABLE} when due. */
    SCHEDULED,
    /** Ready; a queue's dispatcher claims it and it becomes {@link #RUNNING}. */
    AVAILABLE,
    /**
     * Claimed by one instance against one of its permits. Its outcome moves it on; if its instance dies or the
     * attempt passes its deadline, the rescuer moves it to {@link #AVAILABLE} or {@link #DISCARDED}.
     */
    RUNNING,
    /** Failed and waiting for its back-off; the leader's scheduler makes it {@link #AVAILABLE} when due. */
    RETRYABLE,
    /** Done. Terminal; removed by retention clean-up. */
    COMPLETED,
    /** Failed for good: attempts used up, unknown kind, undecodable arguments. Terminal; an admin may retry it. */
    DISCARDED,
    /** Cancelled by an operator or its handler. Terminal; an admin may retry it. */
    CANCELLED;

    private final String dbName = name().toLowerCase(Locale.ROOT);

    /** The name stored in the database and shown by the REST API. */
    public String dbName() {
        return dbName;
    }

    public boolean terminal() {
        return this == COMPLETED || this == DISCARDED || this == CANCELLED;
    }

    private static final JobState[] ALL = values();

    /**
     * The state stored as {@code name}. Compares with the seven names instead of upper-casing and looking up the enum
     * constant: it runs for every row an insert or a claim answers.
     *
     * @throws IllegalArgumentException for a name that is no state's
     */
    public static JobState fromDb(String name) {
        for (JobState s : ALL) {
            if (s.dbName.equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("no job state is stored as " + name);
    }
}
