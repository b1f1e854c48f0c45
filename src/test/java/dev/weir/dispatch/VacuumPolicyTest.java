package dev.weir.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.store.JobStore.TableStats;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VacuumPolicyTest {

    private static final long S = Duration.ofSeconds(1).toNanos();
    private final VacuumPolicy policy = new VacuumPolicy(1000, Duration.ofSeconds(5));

    private static TableStats jobs(long dead, long vacuums) {
        return new TableStats("jobs", dead, vacuums, false, 0, 0);
    }

    @Test
    void aTableFirstSeenIsDueOnceEnoughRowsAreDead() {
        assertEquals(Optional.empty(), policy.due(List.of(jobs(999, 0)), 0));
        assertEquals(Optional.of("jobs"), policy.due(List.of(jobs(1000, 0)), S));
    }

    @Test
    void aVacuumUnderWayIsNeverJoined() {
        assertEquals(Optional.empty(), policy.due(List.of(new TableStats("jobs", 50_000, 3, true, 0, 0)), 0));
    }

    @Test
    void afterAVacuumTheTableWaitsItsIntervalAndCountsOnlyNewDeadRows() {
        policy.due(List.of(jobs(5000, 0)), 0);
        policy.vacuumed(jobs(5000, 0), jobs(0, 1), S);
        assertEquals(Optional.empty(), policy.due(List.of(jobs(4000, 1)), 5 * S), "4 s after: too soon");
        assertEquals(Optional.of("jobs"), policy.due(List.of(jobs(4000, 1)), 6 * S));
        assertEquals(Duration.ofSeconds(5), policy.interval("jobs"));
    }

    @Test
    void rowsAVacuumCouldNotRemoveDoNotMakeTheTableDueAgain() {
        policy.due(List.of(jobs(5000, 0)), 0);
        // An old transaction still sees 3,000 of them: removed less than half.
        policy.vacuumed(jobs(5000, 0), jobs(3000, 1), S);
        assertEquals(Duration.ofSeconds(10), policy.interval("jobs"), "the interval doubles");
        assertEquals(Optional.empty(), policy.due(List.of(jobs(3999, 1)), 60 * S), "999 new dead rows are not enough");
        assertEquals(Optional.of("jobs"), policy.due(List.of(jobs(4000, 1)), 60 * S));
    }

    @Test
    void failingVacuumsBackOffUpToTheMaximumAndAWorkingOneResets() {
        policy.due(List.of(jobs(5000, 0)), 0);
        long now = 0;
        long vacuums = 0;
        for (int i = 0; i < 10; i++) {
            now += 400 * S;
            policy.vacuumed(jobs(5000, vacuums), jobs(5000, ++vacuums), now);   // ran, removed nothing
        }
        assertEquals(VacuumPolicy.MAX_INTERVAL, policy.interval("jobs"));
        policy.vacuumed(jobs(9000, vacuums), jobs(100, ++vacuums), now + S);
        assertEquals(Duration.ofSeconds(5), policy.interval("jobs"));
    }

    @Test
    void aVacuumThatDidNotRunBacksOffAndKeepsCountingTheSameDeadRows() {
        policy.due(List.of(jobs(5000, 0)), 0);
        policy.vacuumed(jobs(5000, 0), jobs(5200, 0), S);   // skipped: locked, or not the owner
        assertEquals(Duration.ofSeconds(10), policy.interval("jobs"));
        assertEquals(Optional.empty(), policy.due(List.of(jobs(5200, 0)), 10 * S));
        assertEquals(Optional.of("jobs"), policy.due(List.of(jobs(5200, 0)), 11 * S));
    }

    @Test
    void anotherVacuumCountsAsTheLastOne() {
        policy.due(List.of(jobs(500, 0)), 0);
        // autovacuum ran between two looks and left 200 rows
        assertEquals(Optional.empty(), policy.due(List.of(jobs(200, 1)), 10 * S));
        assertEquals(Optional.empty(), policy.due(List.of(jobs(1500, 1)), 14 * S), "within its interval");
        assertEquals(Optional.empty(), policy.due(List.of(jobs(1199, 1)), 15 * S), "999 new dead rows");
        assertEquals(Optional.of("jobs"), policy.due(List.of(jobs(1200, 1)), 15 * S));
    }

    @Test
    void theTableWithTheMostNewDeadRowsGoesFirst() {
        List<TableStats> stats = List.of(new TableStats("admission_slots", 3000, 0, false, 0, 0), jobs(8000, 0),
                new TableStats("instances", 10, 0, false, 0, 0));
        assertEquals(Optional.of("jobs"), policy.due(stats, 0));
    }

    private static TableStats grown(long live, long inserted, long vacuums) {
        return new TableStats("jobs", 0, vacuums, false, live, inserted);
    }

    @Test
    void aTableThatOnlyGrowsIsDueOnceEnoughRowsAndAFifthOfItWereInserted() {
        assertEquals(Optional.empty(), policy.due(List.of(grown(999, 999, 0)), 0), "999 inserted rows");
        assertEquals(Optional.of("jobs"), policy.due(List.of(grown(1000, 1000, 0)), 0), "an empty table grew");
        assertEquals(Optional.empty(), policy.due(List.of(grown(100_000, 16_000, 0)), 0),
                "84,000 rows before and 16,000 inserted: less than a fifth");
        assertEquals(Optional.of("jobs"), policy.due(List.of(grown(100_000, 20_000, 0)), 0),
                "80,000 rows before, 20,000 inserted: a fifth");
    }

    @Test
    void aVacuumForInsertedRowsWorksWhenItRunsWhateverDeadRowsRemain() {
        TableStats before = new TableStats("jobs", 400, 0, false, 5000, 5000);
        assertEquals(Optional.of("jobs"), policy.due(List.of(before), 0));
        // An old transaction still sees the 400 dead rows; the table was due for its inserted rows.
        assertTrue(policy.vacuumed(before, new TableStats("jobs", 400, 1, false, 5000, 0), S));
        assertEquals(Duration.ofSeconds(5), policy.interval("jobs"));
        assertEquals(Optional.empty(), policy.due(List.of(new TableStats("jobs", 400, 1, false, 5999, 999)), 10 * S),
                "999 inserted since");
        // A vacuum that did not run does not work, whatever it was started for.
        TableStats again = new TableStats("jobs", 400, 1, false, 6000, 1000);
        assertFalse(policy.vacuumed(again, again, 11 * S));
        assertEquals(Duration.ofSeconds(10), policy.interval("jobs"));
    }

    @Test
    void nonsenseSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new VacuumPolicy(0, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> new VacuumPolicy(1, Duration.ZERO));
    }
}
