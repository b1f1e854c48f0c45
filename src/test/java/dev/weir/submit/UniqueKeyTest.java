package dev.weir.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weir.api.InvalidJobException;
import dev.weir.api.Unique;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UniqueKeyTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:20:00Z");

    @Test
    void canonicalJsonIgnoresKeyOrderAndSpacing() {
        assertEquals("{\"a\":[1,{\"x\":null,\"y\":\"é\\\"\"}],\"b\":true}",
                UniqueKey.canonical(" { \"b\" : true, \"a\": [1, {\"y\": \"é\\\"\", \"x\": null}] } "));
    }

    @Test
    void theKeyHoldsWhatTheOptionsAskFor() {
        Unique byArgs = Unique.sameArgs();
        String a = UniqueKey.of(byArgs, "k", "q1", "{\"n\": 1, \"m\": 2}", NOW);
        assertEquals(a, UniqueKey.of(byArgs, "k", "q2", "{\"m\":2,\"n\":1}", NOW), "queue not in the key");
        assertNotEquals(a, UniqueKey.of(byArgs, "k", "q1", "{\"n\": 2, \"m\": 2}", NOW));
        assertNotEquals(a, UniqueKey.of(byArgs, "other", "q1", "{\"n\": 1, \"m\": 2}", NOW));
        assertNotEquals(a, UniqueKey.of(byArgs.withQueue(), "k", "q2", "{\"n\": 1, \"m\": 2}", NOW));
        Unique kindOnly = new Unique(false, false, null, null);
        assertEquals(UniqueKey.of(kindOnly, "k", "q", "{\"n\": 1}", NOW), UniqueKey.of(kindOnly, "k", "q", "{}", NOW));
    }

    @Test
    void aPeriodSplitsTimeIntoWindows() {
        Unique hourly = Unique.sameArgs().within(Duration.ofHours(1));
        String at1020 = UniqueKey.of(hourly, "k", "q", "{}", NOW);
        assertEquals(at1020, UniqueKey.of(hourly, "k", "q", "{}", Instant.parse("2026-11-29T10:59:59Z")));
        assertNotEquals(at1020, UniqueKey.of(hourly, "k", "q", "{}", Instant.parse("2026-11-29T11:00:00Z")));
    }

    @Test
    void statesMustIncludeEveryUnfinishedOne() {
        assertEquals(Unique.UNFINISHED, Unique.sameArgs().sortedStates());
        assertEquals(java.util.List.of("scheduled", "available", "running", "retryable", "completed"),
                Unique.sameArgs().alsoWhen("completed").sortedStates());
        assertThrows(InvalidJobException.class, () -> new Unique(false, true, null, Set.of("available")));
        assertThrows(InvalidJobException.class, () -> Unique.sameArgs().alsoWhen("done"));
        assertThrows(InvalidJobException.class, () -> Unique.sameArgs().within(Duration.ZERO));
    }
}
