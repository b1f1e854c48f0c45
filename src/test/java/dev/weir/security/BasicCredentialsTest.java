package dev.weir.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BasicCredentialsTest {

    private static String basic(String raw) {
        return "Basic " + Base64.getEncoder().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void parsesUserAndPasswordSplittingAtTheFirstColon() {
        assertEquals(Optional.of(new BasicCredentials("admin", "pa:ss")), BasicCredentials.parse(basic("admin:pa:ss")));
        assertEquals(Optional.of(new BasicCredentials("admin", "")), BasicCredentials.parse(basic("admin:")));
        assertEquals(Optional.of(new BasicCredentials("émile", "mot de passe")),
                BasicCredentials.parse(basic("émile:mot de passe")));
    }

    @Test
    void theSchemeIsCaseInsensitive() {
        assertEquals("admin", BasicCredentials.parse("basic " + basic("admin:x").substring(6)).orElseThrow().user());
    }

    @Test
    void refusesWhatIsNotBasicCredentials() {
        assertTrue(BasicCredentials.parse(null).isEmpty());
        assertTrue(BasicCredentials.parse("").isEmpty());
        assertTrue(BasicCredentials.parse("Basic").isEmpty());
        assertTrue(BasicCredentials.parse("Bearer abc").isEmpty());
        assertTrue(BasicCredentials.parse("Basic !!!").isEmpty());
        assertTrue(BasicCredentials.parse(basic("no-colon")).isEmpty());
    }

    @Test
    void thePasswordNeverShowsInTheString() {
        assertFalse(BasicCredentials.parse(basic("admin:secret")).orElseThrow().toString().contains("secret"));
    }
}
