package dev.weir.security;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/** The user and password of an HTTP {@code Authorization: Basic …} header (RFC 7617), UTF-8. */
public record BasicCredentials(String user, String password) {

    /** Parses the header's value; empty when it is absent, not Basic, not Base64, or has no colon. */
    public static Optional<BasicCredentials> parse(String header) {
        if (header == null) {
            return Optional.empty();
        }
        String h = header.strip();
        if (h.length() < 6 || !h.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(h.substring(6).strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        return Optional.of(new BasicCredentials(decoded.substring(0, colon), decoded.substring(colon + 1)));
    }

    @Override
    public String toString() {
        return "BasicCredentials[user=" + user + "]";
    }
}
