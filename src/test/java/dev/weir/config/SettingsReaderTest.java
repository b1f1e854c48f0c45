package dev.weir.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class SettingsReaderTest {

    private static WeirSettings read(String... keyValues) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return SettingsReader.read(k -> Optional.ofNullable(map.get(k)));
    }

    @Test
    void defaultsGiveOneHardReservedQueue() {
        WeirSettings s = read();
        assertEquals(1, s.queues().size());
        QueueSettings q = s.queues().get(0);
        assertEquals("default", q.name());
        assertEquals(50, q.maxWorkers());
        assertEquals(0, q.minWorkers());
        assertEquals(1, q.weight());
        assertEquals(Duration.ofMinutes(5), q.deadline());
        assertEquals(Duration.ofSeconds(1), q.pollInterval());
        assertTrue(q.rateLimit().isEmpty() && q.maxPending().isEmpty());
        assertFalse(s.weighted());
        assertEquals(Duration.ofSeconds(10), s.heartbeatInterval());
        assertEquals(Duration.ofSeconds(60), s.rescueAfter());
        assertEquals(Duration.ofSeconds(30), s.shutdownTimeout());
        assertFalse(s.diagnostics());
    }

    @Test
    void everyKeyIsRead() {
        WeirSettings s = read("weir.queues", " emails , reports-2 ", "weir.global-max-workers", "12",
                "weir.queue.emails.min-workers", "2", "weir.queue.emails.weight", "3",
                "weir.queue.emails.rate-limit", "2.5", "weir.queue.emails.rate-burst", "7",
                "weir.queue.emails.max-pending", "100", "weir.queue.emails.deadline", "PT10S",
                "weir.queue.emails.poll-interval", "PT0.2S", "weir.queue.reports-2.max-workers", "5",
                "weir.heartbeat-interval", "PT2S", "weir.rescue-after", "PT6S", "weir.shutdown-timeout", "PT0S",
                "weir.diagnostics.enabled", "TRUE");
        assertEquals(2, s.queues().size());
        QueueSettings emails = s.queue("emails").orElseThrow();
        assertEquals(2, emails.minWorkers());
        assertEquals(3, emails.weight());
        assertEquals(2.5, emails.rateLimit().getAsDouble());
        assertEquals(7, emails.rateBurst().getAsInt());
        assertEquals(100, emails.maxPending().getAsInt());
        assertEquals(Duration.ofSeconds(10), emails.deadline());
        assertEquals(Duration.ofMillis(200), emails.pollInterval());
        assertEquals(5, s.queue("reports-2").orElseThrow().maxWorkers());
        assertTrue(s.weighted());
        assertEquals(12, s.globalMaxWorkers().getAsInt());
        assertEquals(Duration.ZERO, s.shutdownTimeout());
        assertTrue(s.diagnostics());
    }

    @ParameterizedTest(name = "{0} = {1} → {2}")
    @CsvSource(delimiter = '|', textBlock = """
            weir.queues                     | Emails     | INVALID_QUEUE_NAME
            weir.queues                     | a,,b       | INVALID_QUEUE_NAME
            weir.queues                     | a,a        | DUPLICATE_QUEUE
            weir.queues                     | 9lives     | INVALID_QUEUE_NAME
            weir.global-max-workers         | 0          | INVALID_GLOBAL_MAX_WORKERS
            weir.global-max-workers         | ten        | INVALID_GLOBAL_MAX_WORKERS
            weir.queue.default.max-workers  | 0          | INVALID_MAX_WORKERS
            weir.queue.default.max-workers  | -3         | INVALID_MAX_WORKERS
            weir.queue.default.min-workers  | -1         | INVALID_MIN_WORKERS
            weir.queue.default.weight       | 0          | INVALID_WEIGHT
            weir.queue.default.rate-limit   | 0          | INVALID_RATE_LIMIT
            weir.queue.default.rate-limit   | -2         | INVALID_RATE_LIMIT
            weir.queue.default.rate-limit   | NaN        | INVALID_RATE_LIMIT
            weir.queue.default.rate-burst   | 3          | RATE_BURST_WITHOUT_RATE
            weir.queue.default.max-pending  | 0          | INVALID_MAX_PENDING
            weir.queue.default.deadline     | PT0S       | INVALID_DEADLINE
            weir.queue.default.deadline     | 5 minutes  | INVALID_DEADLINE
            weir.queue.default.poll-interval| -PT1S      | INVALID_POLL_INTERVAL
            weir.heartbeat-interval         | PT0S       | INVALID_HEARTBEAT_INTERVAL
            weir.rescue-after               | PT20S      | RESCUE_TOO_SOON
            weir.shutdown-timeout           | -PT1S      | INVALID_SHUTDOWN_TIMEOUT
            weir.diagnostics.enabled        | yes        | INVALID_BOOLEAN
            weir.queues                     | a;b        | INVALID_QUEUE_NAME
            weir.queues                     | é          | INVALID_QUEUE_NAME
            weir.global-max-workers         | 2147483648 | INVALID_GLOBAL_MAX_WORKERS
            weir.queue.default.max-workers  | many       | INVALID_MAX_WORKERS
            weir.queue.default.max-workers  | 1.5        | INVALID_MAX_WORKERS
            weir.queue.default.min-workers  | some       | INVALID_MIN_WORKERS
            weir.queue.default.weight       | heavy      | INVALID_WEIGHT
            weir.queue.default.weight       | -1         | INVALID_WEIGHT
            weir.queue.default.rate-limit   | fast       | INVALID_RATE_LIMIT
            weir.queue.default.rate-limit   | Infinity   | INVALID_RATE_LIMIT
            weir.queue.default.max-pending  | -5         | INVALID_MAX_PENDING
            weir.queue.default.max-pending  | lots       | INVALID_MAX_PENDING
            weir.queue.default.deadline     | -PT1M      | INVALID_DEADLINE
            weir.queue.default.poll-interval| PT0S       | INVALID_POLL_INTERVAL
            weir.queue.default.poll-interval| 1s         | INVALID_POLL_INTERVAL
            weir.heartbeat-interval         | 10         | INVALID_HEARTBEAT_INTERVAL
            weir.rescue-after               | PT0S       | INVALID_RESCUE_AFTER
            weir.rescue-after               | soon       | INVALID_RESCUE_AFTER
            weir.shutdown-timeout           | half a min | INVALID_SHUTDOWN_TIMEOUT
            weir.diagnostics.enabled        | 1          | INVALID_BOOLEAN
            """)
    void invalidValuesStopWithKeyValueAndRule(String key, String value, String code) {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class, () -> read(key, value));
        assertEquals(code, e.code());
        assertTrue(e.getMessage().startsWith(code + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(key), e.getMessage());
        assertTrue(e.getMessage().contains(value.strip()), e.getMessage());
    }

    @Test
    void aBadBurstIsRefusedEvenWithARate() {
        for (String burst : new String[] {"0", "-1", "big"}) {
            InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                    () -> read("weir.queue.default.rate-limit", "5", "weir.queue.default.rate-burst", burst));
            assertEquals("INVALID_RATE_BURST", e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("weir.queue.default.rate-burst = " + burst), e.getMessage());
        }
    }

    @Test
    void aKeyOfAnotherQueueNamesThatQueue() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> read("weir.queues", "default,reports-2", "weir.queue.reports-2.deadline", "forever"));
        assertTrue(e.getMessage().startsWith("INVALID_DEADLINE: weir.queue.reports-2.deadline = forever"),
                e.getMessage());
    }

    @Test
    void minimumsMustFitTheGlobalBudget() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> read("weir.queues", "a,b", "weir.global-max-workers", "10", "weir.queue.a.min-workers", "6",
                        "weir.queue.b.min-workers", "6"));
        assertEquals("MIN_WORKERS_EXCEED_GLOBAL: Σ weir.queue.*.min-workers = 12 > weir.global-max-workers = 10",
                e.getMessage());
    }

    @Test
    void theWeightMessageReadsAsDocumented() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> read("weir.queues", "emails", "weir.queue.emails.weight", "0"));
        assertEquals("INVALID_WEIGHT: weir.queue.emails.weight = 0 (must be ≥ 1)", e.getMessage());
    }

    @Test
    void emptyValuesMeanUnset() {
        assertEquals(50, read("weir.queue.default.max-workers", "  ").queues().get(0).maxWorkers());
    }
}
