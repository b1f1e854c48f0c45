package dev.weir.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LoginKeyTest {

    @Test
    void theSameUserWithTheSameRolesHasOneKeyWhateverTheirOrder() {
        assertEquals(LoginKey.of("admin", List.of("weir-admin", "weir-viewer")),
                LoginKey.of("admin", List.of("weir-viewer", "weir-admin")));
    }

    @Test
    void anotherUserOrOtherRolesHaveAnotherKey() {
        String admin = LoginKey.of("admin", Set.of("weir-admin"));
        assertNotEquals(admin, LoginKey.of("viewer", Set.of("weir-admin")));
        assertNotEquals(admin, LoginKey.of("admin", Set.of("weir-viewer")));
        assertNotEquals(admin, LoginKey.of("admin", Set.of()));
    }

    @Test
    void aSeparatorInsideTheNameCannotMakeTwoLoginsLookAlike() {
        assertNotEquals(LoginKey.of("a:b", Set.of("c")), LoginKey.of("a", Set.of("b:c")));
        assertNotEquals(LoginKey.of("a", Set.of("b", "c")), LoginKey.of("a", Set.of("b,c")));
    }
}
