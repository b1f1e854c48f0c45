package dev.weir.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MigratorTest {

    @Test
    void migrationsAreListedInOrderFromOne() {
        var list = Migrator.list();
        for (int i = 0; i < list.size(); i++) {
            assertEquals(i + 1, list.get(i).version());
        }
        assertEquals("V1__jobs.sql", list.get(0).file());
    }
}
