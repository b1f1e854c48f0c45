package dev.weir.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WindowedStatementTest {

    @Test
    void theWindowIsWrittenIntoEveryPlaceOfTheText() {
        WindowedStatement s = new WindowedStatement("SELECT 1 LIMIT {window} UNION ALL SELECT 2 LIMIT {window}");
        assertEquals("SELECT 1 LIMIT 64 UNION ALL SELECT 2 LIMIT 64", s.text(64));
        assertEquals("SELECT 1 LIMIT 1024 UNION ALL SELECT 2 LIMIT 1024", s.text(1024));
    }

    @Test
    void eachWindowsTextIsMadeOnce() {
        WindowedStatement s = new WindowedStatement("LIMIT {window}");
        assertSame(s.text(256), s.text(256));
    }

    @Test
    void onlyPowersOfTwoAreWindows() {
        WindowedStatement s = new WindowedStatement("LIMIT {window}");
        assertThrows(IllegalArgumentException.class, () -> s.text(48));
        assertThrows(IllegalArgumentException.class, () -> s.text(0));
        assertThrows(IllegalArgumentException.class, () -> s.text(-64));
    }

    @Test
    void aTextWithoutAWindowIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new WindowedStatement("LIMIT ?4"));
    }

    @Test
    void theAdmissionStatementsHaveAWindow() {
        for (String template : new String[] {Queries.ADMISSION_ADMIT, Queries.ADMISSION_TAKE}) {
            String text = new WindowedStatement(template).text(64);
            assertTrue(text.contains("LIMIT 64"), text);
            assertFalse(text.contains(WindowedStatement.WINDOW), text);
        }
    }

    @Test
    void theFirstWindowIsTheSmallestPowerOfTwoWithRoomToSpare() {
        assertEquals(64, AdmissionSlots.firstWindow(1));
        assertEquals(64, AdmissionSlots.firstWindow(16));
        assertEquals(64, AdmissionSlots.firstWindow(32));
        assertEquals(128, AdmissionSlots.firstWindow(33));
        assertEquals(2048, AdmissionSlots.firstWindow(1000));
        assertThrows(IllegalArgumentException.class, () -> AdmissionSlots.firstWindow(0));
    }
}
