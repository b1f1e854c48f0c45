package dev.weir.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UsersTest {

    private static Users with(Map<String, String> config) {
        return Users.from(key -> Optional.ofNullable(config.get(key)));
    }

    @Test
    void eachUserHasTheRoleOfItsName() {
        Users users = with(Map.of("weir.viewer.password", "v", "weir.submitter.password", "s",
                "weir.admin.password", "a"));
        assertEquals(Optional.of(Set.of("weir-viewer")), users.authenticate("viewer", "v"));
        assertEquals(Optional.of(Set.of("weir-submitter")), users.authenticate("submitter", "s"));
        assertEquals(Optional.of(Set.of("weir-admin")), users.authenticate("admin", "a"));
    }

    @Test
    void aWrongPasswordOrAnotherUsersPasswordIsRefused() {
        Users users = with(Map.of("weir.viewer.password", "v", "weir.admin.password", "a"));
        assertTrue(users.authenticate("admin", "v").isEmpty());
        assertTrue(users.authenticate("admin", "A").isEmpty());
        assertTrue(users.authenticate("admin", "a ").isEmpty());
        assertTrue(users.authenticate("Admin", "a").isEmpty());
        assertTrue(users.authenticate("root", "a").isEmpty());
    }

    @Test
    void aUserWhosePasswordIsUnsetOrBlankDoesNotExist() {
        Users users = with(Map.of("weir.admin.password", "  "));
        assertEquals(Set.of(), users.names());
        assertTrue(users.authenticate("admin", "  ").isEmpty());
        assertTrue(users.authenticate("admin", "").isEmpty());
        assertTrue(users.authenticate("viewer", "").isEmpty());
    }

    @Test
    void namesListOnlyTheUsersThatExist() {
        assertEquals(Set.of("submitter"), with(Map.of("weir.submitter.password", "x")).names());
    }
}
