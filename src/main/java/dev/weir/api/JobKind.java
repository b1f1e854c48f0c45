package dev.weir.api;

import java.util.Objects;

/**
 * A kind of job: the name that selects its handler, and the Java type its arguments decode to.
 *
 * <p>Declare one constant per kind and share it between the code that submits and the handler:
 * <pre>{@code
 * public static final JobKind<WelcomeEmail> WELCOME = JobKind.of("email.welcome", WelcomeEmail.class);
 * }</pre>
 * Arguments are stored as JSON (JSON-B), so the type should be a record or a bean JSON-B can read back.
 *
 * @param name     the kind's name, stored in {@code weir.jobs.kind}; non-blank, at most 200 characters
 * @param argsType the type the stored JSON arguments decode to
 * @param <A>      the arguments' type
 */
public record JobKind<A>(String name, Class<A> argsType) {

    /** The longest kind name Weir stores. */
    public static final int MAX_NAME_LENGTH = 200;

    public JobKind {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(argsType, "argsType");
        if (name.isBlank() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(
                    "a job kind name must be non-blank and at most " + MAX_NAME_LENGTH + " characters: '" + name + "'");
        }
    }

    public static <A> JobKind<A> of(String name, Class<A> argsType) {
        return new JobKind<>(name, argsType);
    }
}
