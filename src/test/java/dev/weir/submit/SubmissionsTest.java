package dev.weir.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weir.api.InvalidJobException;
import dev.weir.api.JobOptions;
import dev.weir.api.UnknownQueueException;
import dev.weir.config.SettingsReader;
import dev.weir.config.WeirSettings;
import dev.weir.store.NewJob;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SubmissionsTest {

    private final WeirSettings settings = SettingsReader.read(k -> k.equals("weir.queues") ? Optional.of("default,emails")
            : Optional.empty());
    private final Instant now = Instant.parse("2030-01-01T00:00:00Z");

    private String code(Runnable r) {
        return assertThrows(InvalidJobException.class, r::run).code();
    }

    @Test
    void aValidJobBecomesARow() {
        NewJob job = Submissions.validate(settings, "k", "{\"a\":1}", JobOptions.defaults().queue("emails").priority(1)
                .maxAttempts(3).runAt(now.plusSeconds(5)), now);
        assertEquals(new NewJob("k", "emails", "{\"a\":1}", 1, 3, now.plusSeconds(5)), job);
    }

    @Test
    void theRowCarriesTheConfiguredQueueName() {
        String asked = new String("emails".toCharArray());
        NewJob job = Submissions.validate(settings, "k", null, JobOptions.defaults().queue(asked), now);
        assertSame(settings.queue("emails").orElseThrow().name(), job.queue());
    }

    @Test
    void refusals() {
        assertEquals("invalid_kind", code(() -> Submissions.validate(settings, " ", null, JobOptions.defaults(), now)));
        assertEquals("invalid_kind", code(() -> Submissions.validate(settings, "k".repeat(201), null,
                JobOptions.defaults(), now)));
        assertThrows(UnknownQueueException.class,
                () -> Submissions.validate(settings, "k", null, JobOptions.defaults().queue("nope"), now));
        assertEquals("args_too_large", code(() -> Submissions.validate(settings, "k",
                "{\"s\":\"" + "é".repeat(140_000) + "\"}", JobOptions.defaults(), now)));
        assertEquals("invalid_args", code(() -> Submissions.validate(settings, "k", "{\"s\":\"\u0000\"}",
                JobOptions.defaults(), now)));
        assertEquals("invalid_run_at", code(() -> Submissions.validate(settings, "k", null,
                JobOptions.defaults().runAt(now.plus(Duration.ofDays(4000))), now)));
        assertEquals("invalid_priority", code(() -> JobOptions.defaults().priority(5)));
        assertEquals("invalid_max_attempts", code(() -> JobOptions.defaults().maxAttempts(0)));
        assertEquals("invalid_delay", code(() -> JobOptions.defaults().delay(Duration.ofSeconds(-1))));
    }

    @Test
    void utf8LengthCountsBytes() {
        assertEquals(1 + 2 + 3 + 4, Submissions.utf8Length("aé€😀"));
    }
}
