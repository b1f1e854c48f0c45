package dev.weir.admin;

import dev.weir.api.InvalidJobException;
import dev.weir.api.JobOptions;
import dev.weir.api.Unique;
import dev.weir.json.JsonText;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Set;

/**
 * Reads one job of a REST submission ({@code {"kind", "queue"?, "args"?, "priority"?, "runAt"?, "maxAttempts"?}})
 * into its parts, refusing anything unclear with an {@link InvalidJobException} that names the field.
 */
public final class JobRequestParser {

    static final Set<String> FIELDS = Set.of("kind", "queue", "args", "priority", "runAt", "maxAttempts", "unique");
    static final Set<String> UNIQUE_FIELDS = Set.of("byQueue", "byArgs", "period", "states");

    /** One parsed job; {@code argsJson} is a JSON object's text, or null for none. */
    public record Parsed(String kind, String argsJson, JobOptions options) {
    }

    private JobRequestParser() {
    }

    public static Parsed parse(JsonValue value, String where) {
        if (!(value instanceof JsonObject job)) {
            throw new InvalidJobException("invalid_request", where + " must be a JSON object");
        }
        for (String field : job.keySet()) {
            if (!FIELDS.contains(field)) {
                throw new InvalidJobException("unknown_field", where + " has an unknown field '" + field
                        + "' (known: kind, queue, args, priority, runAt, maxAttempts, unique)");
            }
        }
        String kind = string(job, "kind", where);
        if (kind == null) {
            throw new InvalidJobException("invalid_kind", where + ": kind is required");
        }
        try {
            return new Parsed(kind, args(job, where), options(job, where));
        } catch (InvalidJobException e) {
            if (e.getMessage().startsWith(where)) {
                throw e;
            }
            throw new InvalidJobException(e.code(), where + ": " + e.getMessage(), e);
        }
    }

    private static JobOptions options(JsonObject job, String where) {
        JobOptions options = JobOptions.defaults();
        String queue = string(job, "queue", where);
        if (queue != null) {
            options = options.queue(queue);
        }
        Integer priority = integer(job, "priority", where);
        if (priority != null) {
            options = options.priority(priority);
        }
        Integer maxAttempts = integer(job, "maxAttempts", where);
        if (maxAttempts != null) {
            options = options.maxAttempts(maxAttempts);
        }
        String runAt = string(job, "runAt", where);
        if (runAt != null) {
            options = options.runAt(instant(runAt, where));
        }
        JsonValue unique = job.get("unique");
        if (unique != null && unique.getValueType() != JsonValue.ValueType.NULL) {
            options = options.unique(unique(unique, where));
        }
        return options;
    }

    /** {@code {"byQueue"?, "byArgs"?, "period"?, "states"?}} (DESIGN §7a). */
    private static Unique unique(JsonValue value, String where) {
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new InvalidJobException("invalid_unique", where + ": unique must be an object");
        }
        JsonObject u = value.asJsonObject();
        for (String field : u.keySet()) {
            if (!UNIQUE_FIELDS.contains(field)) {
                throw new InvalidJobException("invalid_unique", where + ": unique has an unknown field '" + field
                        + "' (known: byQueue, byArgs, period, states)");
            }
        }
        Duration period = null;
        String periodText = string(u, "period", where + ": unique");
        if (periodText != null) {
            try {
                period = Duration.parse(periodText);
            } catch (DateTimeParseException e) {
                throw new InvalidJobException("invalid_unique", where + ": unique.period must be an ISO-8601 duration "
                        + "such as PT1H, was '" + periodText + "'");
            }
        }
        Set<String> states = null;
        JsonValue rawStates = u.get("states");
        if (rawStates != null && rawStates.getValueType() != JsonValue.ValueType.NULL) {
            if (rawStates.getValueType() != JsonValue.ValueType.ARRAY) {
                throw new InvalidJobException("invalid_unique", where + ": unique.states must be an array of states");
            }
            states = new java.util.HashSet<>();
            for (JsonValue v : rawStates.asJsonArray()) {
                if (!(v instanceof JsonString st)) {
                    throw new InvalidJobException("invalid_unique", where + ": unique.states must hold state names");
                }
                states.add(st.getString());
            }
        }
        return new Unique(bool(u, "byQueue", where), bool(u, "byArgs", where), period, states);
    }

    private static boolean bool(JsonObject u, String field, String where) {
        JsonValue v = u.get(field);
        if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
            return false;
        }
        if (v.getValueType() != JsonValue.ValueType.TRUE && v.getValueType() != JsonValue.ValueType.FALSE) {
            throw new InvalidJobException("invalid_unique", where + ": unique." + field + " must be true or false");
        }
        return v.getValueType() == JsonValue.ValueType.TRUE;
    }

    private static String args(JsonObject job, String where) {
        JsonValue rawArgs = job.get("args");
        if (rawArgs == null || rawArgs.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (rawArgs.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new InvalidJobException("invalid_args", where + ": args must be a JSON object");
        }
        return JsonText.of(rawArgs);
    }

    private static String string(JsonObject job, String field, String where) {
        JsonValue value = job.get(field);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (!(value instanceof JsonString s)) {
            throw new InvalidJobException("invalid_" + snake(field), where + ": " + field + " must be a string");
        }
        return s.getString();
    }

    private static Integer integer(JsonObject job, String field, String where) {
        JsonValue value = job.get(field);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (!(value instanceof JsonNumber n) || !n.isIntegral()) {
            throw new InvalidJobException("invalid_" + snake(field), where + ": " + field + " must be a whole number");
        }
        try {
            return n.intValueExact();
        } catch (ArithmeticException e) {
            throw new InvalidJobException("invalid_" + snake(field), where + ": " + field + " is out of range");
        }
    }

    private static Instant instant(String text, String where) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new InvalidJobException("invalid_run_at", where + ": runAt must be an ISO-8601 time with an offset, "
                    + "such as 2030-01-01T12:00:00Z, was '" + text + "'");
        }
    }

    private static String snake(String camel) {
        return camel.replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT);
    }
}
