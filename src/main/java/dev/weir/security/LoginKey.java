package dev.weir.security;

import java.util.Collection;
import java.util.TreeSet;

/**
 * The name of a successful login in the container's authentication cache: the caller and its roles, in a fixed
 * order, each with its length before it so that no name can pass for another. Two logins share a key exactly when
 * they are the same user with the same roles, so the cache holds one subject per built-in user, however many calls
 * there are. No password goes into it: the key is only looked up after the request's own credentials were checked.
 */
final class LoginKey {

    private LoginKey() {
    }

    static String of(String caller, Collection<String> roles) {
        StringBuilder key = new StringBuilder("weir");
        key.append(':').append(caller.length()).append(':').append(caller);
        for (String role : new TreeSet<>(roles)) {
            key.append(':').append(role.length()).append(':').append(role);
        }
        return key.toString();
    }
}
