package dev.weir.api;

import java.util.Objects;

/**
 * One job of a batch given to {@link JobSubmitter#submitAll(java.util.List)}.
 *
 * @param <A> the arguments' type
 */
public record JobRequest<A>(JobKind<A> kind, A args, JobOptions options) {

    public JobRequest {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(options, "options");
    }

    public static <A> JobRequest<A> of(JobKind<A> kind, A args) {
        return new JobRequest<>(kind, args, JobOptions.defaults());
    }

    public static <A> JobRequest<A> of(JobKind<A> kind, A args, JobOptions options) {
        return new JobRequest<>(kind, args, options);
    }
}
