package dev.weir.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class JobStateTest {

    @Test
    void everyStateIsReadBackFromItsStoredName() {
        for (JobState s : JobState.values()) {
            assertEquals(s, JobState.fromDb(new String(s.dbName().toCharArray())));
        }
        assertEquals("available", JobState.AVAILABLE.dbName());
    }

    @Test
    void aNameThatIsNoStateIsRefused() {
        assertEquals("no job state is stored as AVAILABLE",
                assertThrows(IllegalArgumentException.class, () -> JobState.fromDb("AVAILABLE")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> JobState.fromDb("done"));
    }
}
