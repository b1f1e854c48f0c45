package dev.weir.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weir.store.JobStore.TableStats;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VacuumPolicyTest {

    private static final long S = Duration.ofSeconds(1).toNanos();
    private final VacuumPolicy policy = new VacuumPolicy(1000, Duration.ofSeconds(5));

    private static TableStats jobs(long dead, long vacuums) {
        return new TableStats("jobs", dead, vacuums, false);
    }

    @Test
    void aTableFirstSeenIsDueOnceEnoughRowsAreDead() {
        assertEquals(Optional.empty(), policy.due(List.of(jobs(999, 0)), 0));
        assertEquals(Optional.of("jobs"), policy.due(List.of(jobs(1000, 0)), S));
    }

    @Test
    void aVacuumUnderWayIsNeverJoined() {
        assertEquals(Optional.empty(), policy.due(List.of(new TableStats("jobs", 50_000, 3, true)), 0));
    }

    @Test
    void afterAVacuumTheTableWaitsItsIntervalAndCountsOnlyNewDeadRows() {
        policy.due(List.of(jobs(5000, 0)), 0);
        policy.vacuumed(5000, 0, jobs(0, 1), S);
        assertEquals(Optional.empty(), policy.due(List.of(jobs(4000, 1)), 5 * S), "4 s after: too soon");
        assertEquals(Optional.of("jobs"), policy.due(List.of(jobs(4000, 1)), 6 * S));
        assertEquals(Duration.ofSeconds(5), policy.interval("jobs"));
    }

    @Test
    void rowsAVacuumCouldNotRemoveDoNotMakeTheTableDueAgain() {
        policy.due(List.of(jobs(5000, 0)), 0);
        // An old transaction still sees 3,000 of them: removed less than half.
        policy.vacuumed(5000, 0, jobs(3000, 1), S);
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
            policy.vacuumed(5000, vacuums, jobs(5000, ++vacuums), now);   // ran, removed nothing
        }
        assertEquals(VacuumPolicy.MAX_INTERVAL, policy.interval("jobs"));
        policy.vacuumed(9000, vacuums, jobs(100, ++vacuums), now + S);
        assertEquals(Duration.ofSeconds(5), policy.interval("jobs"));
    }

    @Test
    void aVacuumThatDidNotRunBacksOffAndKeepsCountingTheSameDeadRows() {
        policy.due(List.of(jobs(5000, 0)), 0);
        policy.vacuumed(5000, 0, jobs(5200, 0), S);   // skipped: locked, or not the owner
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
        List<TableStats> stats = List.of(new TableStats("admission_slots", 3000, 0, false), jobs(8000, 0),
                new TableStats("instances", 10, 0, false));
        assertEquals(Optional.of("jobs"), policy.due(stats, 0));
    }

    @Test
    void nonsenseSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new VacuumPolicy(0, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> new VacuumPolicy(1, Duration.ZERO));
    }
}
