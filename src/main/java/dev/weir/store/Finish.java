package dev.weir.store;

/**
 * How one attempt ends, as written by {@link JobStore#finish}.
 *
 * @param state   the next state
 * @param delayMs for a waiting next state: how long from now until it is due
 * @param error   appended to the job's error history when not null
 * @param refund  whether the attempt is given back (snooze, executor rejection)
 * @param followUps jobs to insert in the transaction that records this outcome, if it applies (completions only)
 */
public record Finish(long id, long lease, JobState state, long delayMs, String error, boolean refund,
        java.util.List<NewJob> followUps) {

    public Finish {
        followUps = java.util.List.copyOf(followUps);
    }

    /** An outcome with no follow-up jobs. */
    public Finish(long id, long lease, JobState state, long delayMs, String error, boolean refund) {
        this(id, lease, state, delayMs, error, refund, java.util.List.of());
    }
}
