package dev.weir.config;

import dev.weir.json.Jsonp;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The one place that reads and validates Weir's configuration keys (see docs/configuration.md). It takes a
 * plain key lookup, so it runs the same against MicroProfile Config in the server and against a map in tests.
 * The first rule broken stops the read with an {@link InvalidConfigurationException} naming key, value and rule.
 */
public final class SettingsReader {

    /** The rule every queue name follows. */
    public static final Pattern QUEUE_NAME = Pattern.compile("[a-z][a-z0-9-]{0,62}");

    private final Function<String, Optional<String>> lookup;
    /** Every key name the configuration knows, for finding {@code weir.cron.<name>.*}. */
    private final Iterable<String> names;

    private SettingsReader(Function<String, Optional<String>> lookup, Iterable<String> names) {
        this.lookup = lookup;
        this.names = names;
    }

    /** Reads every key through {@code lookup}, which answers empty for a key that is not set. */
    public static WeirSettings read(Function<String, Optional<String>> lookup) {
        return new SettingsReader(lookup, List.of()).read();
    }

    /**
     * Reads every key through {@code lookup}; periodic jobs are found among {@code names}, the configuration's key
     * names, as {@code weir.cron.<name>.schedule} or as the environment variable {@code WEIR_CRON_<NAME>_SCHEDULE}
     * (whose {@code _} in the name stand for {@code -}).
     */
    public static WeirSettings read(Function<String, Optional<String>> lookup, Iterable<String> names) {
        return new SettingsReader(lookup, names).read();
    }

    private WeirSettings read() {
        OptionalInt global = optionalInt("weir.global-max-workers", 1, "INVALID_GLOBAL_MAX_WORKERS");
        List<QueueSettings> queues = new ArrayList<>();
        for (String name : queueNames()) {
            queues.add(queue(name));
        }
        if (global.isPresent()) {
            int sumMin = queues.stream().mapToInt(QueueSettings::minWorkers).sum();
            if (sumMin > global.getAsInt()) {
                throw new InvalidConfigurationException("MIN_WORKERS_EXCEED_GLOBAL",
                        "Σ weir.queue.*.min-workers = " + sumMin + " > weir.global-max-workers = " + global.getAsInt());
            }
        }
        Duration heartbeat = positiveDuration("weir.heartbeat-interval", WeirSettings.DEFAULT_HEARTBEAT_INTERVAL,
                "INVALID_HEARTBEAT_INTERVAL");
        Duration rescueAfter = positiveDuration("weir.rescue-after", WeirSettings.DEFAULT_RESCUE_AFTER,
                "INVALID_RESCUE_AFTER");
        if (rescueAfter.compareTo(heartbeat.multipliedBy(3)) < 0) {
            throw new InvalidConfigurationException("RESCUE_TOO_SOON", "weir.rescue-after = " + rescueAfter
                    + " (must be ≥ 3 × weir.heartbeat-interval = " + heartbeat.multipliedBy(3) + ")");
        }
        Duration shutdown = duration("weir.shutdown-timeout", WeirSettings.DEFAULT_SHUTDOWN_TIMEOUT,
                "INVALID_SHUTDOWN_TIMEOUT", false);
        boolean diagnostics = bool("weir.diagnostics.enabled", false);
        Retention retention = new Retention(
                retention("weir.retention.completed", Retention.DEFAULT_COMPLETED),
                retention("weir.retention.cancelled", Retention.DEFAULT_CANCELLED),
                retention("weir.retention.discarded", Retention.DEFAULT_DISCARDED));
        List<Periodic> periodic = new ArrayList<>();
        for (String cron : cronNames()) {
            periodic.add(periodic(cron, queues));
        }
        OptionalInt deadRows = optionalInt("weir.vacuum.dead-rows", 0, "INVALID_VACUUM_DEAD_ROWS");
        Vacuum vacuum = new Vacuum(deadRows.isPresent() ? deadRows.getAsInt() : Vacuum.DEFAULT_DEAD_ROWS,
                positiveDuration("weir.vacuum.min-interval", Vacuum.DEFAULT_MIN_INTERVAL, "INVALID_VACUUM_MIN_INTERVAL"));
        return new WeirSettings(queues, global, heartbeat, rescueAfter, shutdown, diagnostics, retention, periodic,
                vacuum);
    }

    private java.util.SortedSet<String> cronNames() {
        java.util.SortedSet<String> found = new java.util.TreeSet<>();
        for (String key : names) {
            String name = null;
            if (key.startsWith("weir.cron.") && key.endsWith(".schedule")) {
                name = key.substring("weir.cron.".length(), key.length() - ".schedule".length());
            } else if (key.startsWith("WEIR_CRON_") && key.endsWith("_SCHEDULE")) {
                name = key.substring("WEIR_CRON_".length(), key.length() - "_SCHEDULE".length());
            }
            if (name != null) {
                found.add(cronName(key, name));
            }
        }
        return found;
    }

    /**
     * The name a schedule key gives. Configuration sources may list an environment variable's name in another form
     * (upper case, or with {@code _} or {@code .} for the name's {@code -}): a name that breaks the rule only in that
     * way is taken in its normal form when its schedule is found under it.
     */
    private String cronName(String key, String name) {
        if (QUEUE_NAME.matcher(name).matches()) {
            return name;
        }
        String normal = name.toLowerCase(java.util.Locale.ROOT).replace('_', '-').replace('.', '-');
        if (QUEUE_NAME.matcher(normal).matches() && value("weir.cron." + normal + ".schedule").isPresent()) {
            return normal;
        }
        throw new InvalidConfigurationException("INVALID_CRON_NAME",
                key + " (the name '" + name + "' must match " + QUEUE_NAME.pattern() + ")");
    }

    private Periodic periodic(String name, List<QueueSettings> queues) {
        String prefix = "weir.cron." + name + ".";
        String scheduleText = value(prefix + "schedule").orElseThrow(() -> new InvalidConfigurationException(
                "INVALID_CRON_SCHEDULE", prefix + "schedule is empty"));
        dev.weir.cron.CronExpression schedule;
        try {
            schedule = dev.weir.cron.CronExpression.parse(scheduleText);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationException("INVALID_CRON_SCHEDULE",
                    prefix + "schedule = " + scheduleText + " (" + e.getMessage() + ")");
        }
        String kind = value(prefix + "kind").orElseThrow(() -> new InvalidConfigurationException(
                "MISSING_CRON_KIND", prefix + "kind is not set (" + prefix + "schedule = " + scheduleText + ")"));
        String queue = value(prefix + "queue").orElse("default");
        if (queues.stream().noneMatch(q -> q.name().equals(queue))) {
            throw new InvalidConfigurationException("UNKNOWN_CRON_QUEUE",
                    prefix + "queue = " + queue + " (must be one of weir.queues)");
        }
        if (queues.stream().anyMatch(q -> q.name().equals(queue) && q.maxPending().isPresent())) {
            throw new InvalidConfigurationException("CRON_QUEUE_BOUNDED", prefix + "queue = " + queue
                    + " (a periodic job cannot go to a queue with max-pending yet)");
        }
        String args = value(prefix + "args").orElse("{}");
        try (jakarta.json.JsonReader reader = Jsonp.PROVIDER.createReader(new java.io.StringReader(args))) {
            reader.readObject();
        } catch (RuntimeException e) {
            throw new InvalidConfigurationException("INVALID_CRON_ARGS",
                    prefix + "args = " + args + " (must be a JSON object)");
        }
        String zoneText = value(prefix + "time-zone").orElse("UTC");
        java.time.ZoneId zone;
        try {
            zone = java.time.ZoneId.of(zoneText);
        } catch (java.time.DateTimeException e) {
            throw new InvalidConfigurationException("INVALID_TIME_ZONE",
                    prefix + "time-zone = " + zoneText + " (must be a zone id such as Europe/Paris or UTC)");
        }
        return new Periodic(name, schedule, kind, queue, args, zone);
    }

    private List<String> queueNames() {
        String raw = lookup.apply("weir.queues").orElse("default");
        List<String> names = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String part : raw.split(",", -1)) {
            String name = part.strip();
            if (!QUEUE_NAME.matcher(name).matches()) {
                throw new InvalidConfigurationException("INVALID_QUEUE_NAME",
                        "weir.queues = " + raw + " ('" + name + "' must match " + QUEUE_NAME.pattern() + ")");
            }
            if (!seen.add(name)) {
                throw new InvalidConfigurationException("DUPLICATE_QUEUE",
                        "weir.queues = " + raw + " (names '" + name + "' twice)");
            }
            names.add(name);
        }
        return names;
    }

    private QueueSettings queue(String name) {
        String prefix = "weir.queue." + name + ".";
        int maxWorkers = intAtLeast(prefix + "max-workers", QueueSettings.DEFAULT_MAX_WORKERS, 1, "INVALID_MAX_WORKERS");
        int minWorkers = intAtLeast(prefix + "min-workers", QueueSettings.DEFAULT_MIN_WORKERS, 0, "INVALID_MIN_WORKERS");
        int weight = intAtLeast(prefix + "weight", QueueSettings.DEFAULT_WEIGHT, 1, "INVALID_WEIGHT");
        OptionalDouble rate = positiveDouble(prefix + "rate-limit", "INVALID_RATE_LIMIT");
        OptionalInt burst = optionalInt(prefix + "rate-burst", 1, "INVALID_RATE_BURST");
        if (burst.isPresent() && rate.isEmpty()) {
            throw new InvalidConfigurationException("RATE_BURST_WITHOUT_RATE", prefix + "rate-burst = "
                    + burst.getAsInt() + " (needs " + prefix + "rate-limit)");
        }
        OptionalInt maxPending = optionalInt(prefix + "max-pending", 1, "INVALID_MAX_PENDING");
        Duration deadline = positiveDuration(prefix + "deadline", QueueSettings.DEFAULT_DEADLINE, "INVALID_DEADLINE");
        Duration poll = positiveDuration(prefix + "poll-interval", QueueSettings.DEFAULT_POLL_INTERVAL,
                "INVALID_POLL_INTERVAL");
        Optional<Duration> aging = value(prefix + "priority-aging").isEmpty() ? Optional.empty()
                : Optional.of(positiveDuration(prefix + "priority-aging", null, "INVALID_PRIORITY_AGING"));
        return new QueueSettings(name, maxWorkers, minWorkers, weight, rate, burst, maxPending, deadline, poll, aging);
    }

    private int intAtLeast(String key, int defaultValue, int min, String code) {
        OptionalInt value = optionalInt(key, min, code);
        return value.isPresent() ? value.getAsInt() : defaultValue;
    }

    private OptionalInt optionalInt(String key, int min, String code) {
        Optional<String> raw = value(key);
        if (raw.isEmpty()) {
            return OptionalInt.empty();
        }
        int parsed;
        try {
            parsed = Integer.parseInt(raw.get());
        } catch (NumberFormatException e) {
            throw new InvalidConfigurationException(code, key + " = " + raw.get() + " (must be a whole number ≥ " + min + ")");
        }
        if (parsed < min) {
            throw new InvalidConfigurationException(code, key + " = " + raw.get() + " (must be ≥ " + min + ")");
        }
        return OptionalInt.of(parsed);
    }

    private OptionalDouble positiveDouble(String key, String code) {
        Optional<String> raw = value(key);
        if (raw.isEmpty()) {
            return OptionalDouble.empty();
        }
        double parsed;
        try {
            parsed = Double.parseDouble(raw.get());
        } catch (NumberFormatException e) {
            parsed = Double.NaN;
        }
        if (!(parsed > 0) || Double.isInfinite(parsed)) {
            throw new InvalidConfigurationException(code, key + " = " + raw.get() + " (must be a number > 0)");
        }
        return OptionalDouble.of(parsed);
    }

    private Duration positiveDuration(String key, Duration defaultValue, String code) {
        return duration(key, defaultValue, code, true);
    }

    /** A retention period: an ISO-8601 duration ≥ 0, or {@code never} (empty: keep for ever). */
    private Optional<Duration> retention(String key, Duration defaultValue) {
        Optional<String> raw = value(key);
        if (raw.isPresent() && raw.get().strip().equalsIgnoreCase("never")) {
            return Optional.empty();
        }
        try {
            return Optional.of(duration(key, defaultValue, "INVALID_RETENTION", false));
        } catch (InvalidConfigurationException e) {
            throw new InvalidConfigurationException("INVALID_RETENTION",
                    key + " = " + raw.orElse("") + " (must be an ISO-8601 duration ≥ 0 such as P7D, or never)");
        }
    }

    private Duration duration(String key, Duration defaultValue, String code, boolean positive) {
        Optional<String> raw = value(key);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        Duration parsed;
        try {
            parsed = Duration.parse(raw.get());
        } catch (DateTimeParseException e) {
            throw new InvalidConfigurationException(code,
                    key + " = " + raw.get() + " (must be an ISO-8601 duration such as PT30S)");
        }
        if (parsed.isNegative() || (positive && parsed.isZero())) {
            throw new InvalidConfigurationException(code,
                    key + " = " + raw.get() + " (must be " + (positive ? "> 0" : "≥ 0") + ")");
        }
        return parsed;
    }

    private boolean bool(String key, boolean defaultValue) {
        Optional<String> raw = value(key);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        return switch (raw.get().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new InvalidConfigurationException("INVALID_BOOLEAN",
                    key + " = " + raw.get() + " (must be true or false)");
        };
    }

    private Optional<String> value(String key) {
        return lookup.apply(key).map(String::strip).filter(s -> !s.isEmpty());
    }
}
