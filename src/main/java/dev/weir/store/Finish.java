package dev.weir.store;

/**
 * How one attempt ends, as written by {@link JobStore#finish}.
 *
 * @param state   the next state
 * @param delayMs for a waiting next state: how long from now until it is due
 * @param error   appended to the job's error history when not null
 * @param refund  whether the attempt is given back (snooze, executor rejection)
 */
public record Finish(long id, long lease, JobState state, long delayMs, String error, boolean refund) {
}
