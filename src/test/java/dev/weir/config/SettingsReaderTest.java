package dev.weir.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
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
        assertEquals(100, q.maxWorkers());
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

    @Test
    void priorityAgingIsOffUnlessSet() {
        assertEquals(Optional.empty(), read().queues().get(0).priorityAging());
        assertEquals(Optional.of(Duration.ofMinutes(2)),
                read("weir.queue.default.priority-aging", "PT2M").queues().get(0).priorityAging());
    }

    private static WeirSettings readWithNames(String... keyValues) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        // Like MicroProfile Config: a key is also found as its environment variable name.
        return SettingsReader.read(k -> Optional.ofNullable(map.getOrDefault(k,
                map.get(k.toUpperCase(java.util.Locale.ROOT).replaceAll("[^A-Z0-9]", "_")))), map.keySet());
    }

    @Test
    void periodicJobsAreFoundByTheirScheduleKeyInEitherForm() {
        WeirSettings s = readWithNames("weir.queues", "default,reports",
                "weir.cron.nightly-report.schedule", "0 2 * * *", "weir.cron.nightly-report.kind", "report.build",
                "weir.cron.nightly-report.queue", "reports", "weir.cron.nightly-report.args", "{\"full\": true}",
                "weir.cron.nightly-report.time-zone", "Europe/Paris",
                // An environment variable's name: its underscores stand for the name's dashes.
                "WEIR_CRON_CACHE_SWEEP_SCHEDULE", "*/10 * * * * *", "weir.cron.cache-sweep.kind", "cache.sweep",
                // Some sources list an environment variable as a dotted name: its dots stand for dashes too.
                "WEIR_CRON_NEW_YEAR_SCHEDULE", "0 0 1 1 *", "weir.cron.new.year.schedule", "0 0 1 1 *",
                "WEIR_CRON_NEW_YEAR_KIND", "greet");
        assertEquals(List.of("cache-sweep", "new-year", "nightly-report"),
                s.periodic().stream().map(Periodic::name).toList());
        Periodic sweep = s.periodic().get(0);
        assertEquals("*/10 * * * * *", sweep.schedule().toString());
        assertEquals("default", sweep.queue());
        assertEquals("{}", sweep.argsJson());
        assertEquals(java.time.ZoneId.of("UTC"), sweep.zone());
        Periodic nightly = s.periodic().get(2);
        assertEquals("reports", nightly.queue());
        assertEquals(java.time.ZoneId.of("Europe/Paris"), nightly.zone());
        assertEquals("{\"full\": true}", nightly.argsJson());
        assertEquals(List.of(), read().periodic());
    }

    @ParameterizedTest(name = "{0} = {1} → {2}")
    @CsvSource(delimiter = '|', textBlock = """
            weir.cron.x.schedule  | 0 0 30 2 *     | INVALID_CRON_SCHEDULE
            weir.cron.x.schedule  | every day      | INVALID_CRON_SCHEDULE
            weir.cron.x.queue     | nope           | UNKNOWN_CRON_QUEUE
            weir.cron.x.args      | [1,2]          | INVALID_CRON_ARGS
            weir.cron.x.time-zone | Mars/Olympus   | INVALID_TIME_ZONE
            weir.cron.x.kind      |                | MISSING_CRON_KIND
            """)
    void invalidPeriodicJobsStopWithKeyValueAndRule(String key, String value, String code) {
        Map<String, String> keys = new HashMap<>(Map.of("weir.cron.x.schedule", "0 * * * *", "weir.cron.x.kind", "k"));
        if (value == null) {
            keys.remove(key);
        } else {
            keys.put(key, value);
        }
        String[] flat = keys.entrySet().stream().flatMap(e -> java.util.stream.Stream.of(e.getKey(), e.getValue()))
                .toArray(String[]::new);
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class, () -> readWithNames(flat));
        assertEquals(code, e.code());
        assertTrue(e.getMessage().contains(key), e.getMessage());
    }

    @Test
    void aPeriodicJobCannotGoToABoundedQueueYet() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> readWithNames("weir.queue.default.max-pending", "10", "weir.cron.x.schedule", "0 * * * *",
                        "weir.cron.x.kind", "k"));
        assertEquals("CRON_QUEUE_BOUNDED", e.code());
        assertTrue(e.getMessage().contains("weir.cron.x.queue = default"), e.getMessage());
    }

    @Test
    void aPeriodicJobNameFollowsTheQueueNameRule() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> readWithNames("weir.cron.Bad_Name.schedule", "0 * * * *"));
        assertEquals("INVALID_CRON_NAME", e.code());
    }

    @Test
    void retentionDefaultsAndOverrides() {
        assertEquals(Retention.defaults(), read().retention());
        assertEquals(Optional.of(Duration.ofDays(1)), read().retention().completed());
        Retention r = read("weir.retention.completed", "PT0S", "weir.retention.cancelled", "P30D",
                "weir.retention.discarded", " Never ").retention();
        assertEquals(Optional.of(Duration.ZERO), r.completed(), "PT0S deletes finished jobs at the next run");
        assertEquals(Optional.of(Duration.ofDays(30)), r.cancelled());
        assertEquals(Optional.empty(), r.discarded(), "never keeps them");
    }

    @Test
    void vacuumDefaultsAndOverrides() {
        assertEquals(Vacuum.defaults(), read().vacuum());
        assertTrue(read().vacuum().enabled());
        Vacuum v = read("weir.vacuum.dead-rows", "50000", "weir.vacuum.min-interval", "PT1M").vacuum();
        assertEquals(new Vacuum(50_000, Duration.ofMinutes(1)), v);
        assertFalse(read("weir.vacuum.dead-rows", "0").vacuum().enabled(), "0 leaves vacuuming to autovacuum");
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
            weir.queue.default.priority-aging | PT0S     | INVALID_PRIORITY_AGING
            weir.queue.default.priority-aging | soon     | INVALID_PRIORITY_AGING
            weir.retention.completed        | -PT1S      | INVALID_RETENTION
            weir.retention.discarded        | a week     | INVALID_RETENTION
            weir.retention.cancelled        | nevermore  | INVALID_RETENTION
            weir.vacuum.dead-rows           | -1         | INVALID_VACUUM_DEAD_ROWS
            weir.vacuum.dead-rows           | many       | INVALID_VACUUM_DEAD_ROWS
            weir.vacuum.min-interval        | PT0S       | INVALID_VACUUM_MIN_INTERVAL
            weir.vacuum.min-interval        | 5          | INVALID_VACUUM_MIN_INTERVAL
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
        assertEquals(100, read("weir.queue.default.max-workers", "  ").queues().get(0).maxWorkers());
    }
}
