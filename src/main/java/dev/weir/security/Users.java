package dev.weir.security;

import dev.weir.admin.Roles;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Weir's three built-in users (DESIGN §5): {@code viewer}, {@code submitter} and {@code admin}, each with the role of
 * the same standing. A user exists only when its password is set and not blank; a server with no password set has no
 * users and refuses every {@code /api} call. Passwords are compared by their SHA-256 digests with
 * {@link MessageDigest#isEqual}, so neither the comparison's time nor its length tells anything about the password.
 */
public final class Users {

    /** The users and the configuration keys of their passwords ({@code WEIR_VIEWER_PASSWORD} and so on). */
    public static final Map<String, String> PASSWORD_KEYS = Map.of(
            "viewer", "weir.viewer.password",
            "submitter", "weir.submitter.password",
            "admin", "weir.admin.password");

    private static final Map<String, String> ROLE_OF = Map.of(
            "viewer", Roles.VIEWER,
            "submitter", Roles.SUBMITTER,
            "admin", Roles.ADMIN);

    private final Map<String, byte[]> digests;

    private Users(Map<String, byte[]> digests) {
        this.digests = digests;
    }

    /** Reads each user's password with {@code passwordOf} (given the configuration key); unset or blank: no user. */
    public static Users from(Function<String, Optional<String>> passwordOf) {
        Map<String, byte[]> digests = new LinkedHashMap<>();
        for (String user : new String[] {"viewer", "submitter", "admin"}) {
            passwordOf.apply(PASSWORD_KEYS.get(user))
                    .filter(p -> !p.isBlank())
                    .ifPresent(p -> digests.put(user, digest(p)));
        }
        return new Users(Map.copyOf(digests));
    }

    /** The names of the users that exist, for the start-up log. */
    public Set<String> names() {
        return digests.keySet();
    }

    /** The user's roles when the password is right; empty for an unknown user or a wrong password. */
    public Optional<Set<String>> authenticate(String user, String password) {
        byte[] expected = digests.get(user);
        // An unknown user costs the same digest as a known one.
        byte[] given = digest(password);
        if (expected == null || !MessageDigest.isEqual(expected, given)) {
            return Optional.empty();
        }
        return Optional.of(roles(user));
    }

    /** The roles of a user that exists; none for any other name. */
    public Set<String> roles(String user) {
        return digests.containsKey(user) ? Set.of(ROLE_OF.get(user)) : Set.of();
    }

    private static byte[] digest(String password) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
