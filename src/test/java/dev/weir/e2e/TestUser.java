package dev.weir.e2e;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * The users the test servers know, with the development passwords the README documents: the weir-it server gets them
 * from src/test/liberty/server.env, a runnable-jar server from {@link ServerProcess}. Nothing packaged carries them.
 */
public enum TestUser {
    VIEWER("viewer", "viewer-dev-password"),
    SUBMITTER("submitter", "submitter-dev-password"),
    ADMIN("admin", "admin-dev-password");

    public final String name;
    public final String password;

    TestUser(String name, String password) {
        this.name = name;
        this.password = password;
    }

    /** The value of an {@code Authorization} header that logs this user in. */
    public String authorization() {
        return basic(name, password);
    }

    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** The environment that gives a server these users. */
    public static Map<String, String> passwords() {
        return Map.of("WEIR_VIEWER_PASSWORD", VIEWER.password,
                "WEIR_SUBMITTER_PASSWORD", SUBMITTER.password,
                "WEIR_ADMIN_PASSWORD", ADMIN.password);
    }
}
