package dev.weir.submit;

import dev.weir.api.InvalidJobException;
import dev.weir.api.JobKind;
import dev.weir.api.JobOptions;
import dev.weir.api.UnknownQueueException;
import dev.weir.config.QueueSettings;
import dev.weir.config.WeirSettings;
import dev.weir.json.Jsonp;
import dev.weir.store.NewJob;
import jakarta.json.JsonException;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;

/**
 * The rules a submission must pass before anything is written, in one place for the Java API and REST alike.
 */
public final class Submissions {

    /** The largest arguments Weir stores for one job, as UTF-8 JSON. */
    public static final int MAX_ARGS_BYTES = 256 * 1024;
    /** The most jobs one batch may hold. */
    public static final int MAX_BATCH = 1000;
    /** How far from now a run-at may lie, either way. */
    public static final Duration MAX_RUN_AT_DISTANCE = Duration.ofDays(3650);

    private Submissions() {
    }

    /**
     * Checks one job and gives the row to insert.
     *
     * @param argsJson a JSON object, already parsed once by the caller (or produced by JSON-B)
     */
    public static NewJob validate(WeirSettings settings, String kind, String argsJson, JobOptions options, Instant now) {
        if (kind == null || kind.isBlank()) {
            throw new InvalidJobException("invalid_kind", "kind must be a non-empty string");
        }
        if (kind.length() > JobKind.MAX_NAME_LENGTH) {
            throw new InvalidJobException("invalid_kind", "kind must be at most " + JobKind.MAX_NAME_LENGTH
                    + " characters, was " + kind.length());
        }
        // The configured name, not the caller's equal string: every job of a queue then carries one instance, whose
        // hash is computed once and which compares by identity in the submission's maps and checks.
        QueueSettings queueSettings = settings.queue(options.queue())
                .orElseThrow(() -> new UnknownQueueException(options.queue()));
        String queue = queueSettings.name();
        if (argsJson != null && utf8Length(argsJson) > MAX_ARGS_BYTES) {
            throw new InvalidJobException("args_too_large", "args must be at most " + MAX_ARGS_BYTES
                    + " bytes of JSON");
        }
        if (argsJson != null && (argsJson.indexOf('\u0000') >= 0 || argsJson.contains("\\u0000"))) {
            // PostgreSQL's jsonb cannot hold U+0000, raw or escaped.
            throw new InvalidJobException("invalid_args", "args must not contain the character U+0000");
        }
        Instant runAt = options.runAt();
        if (runAt != null && (runAt.isAfter(now.plus(MAX_RUN_AT_DISTANCE))
                || runAt.isBefore(now.minus(MAX_RUN_AT_DISTANCE)))) {
            throw new InvalidJobException("invalid_run_at", "runAt must lie within " + MAX_RUN_AT_DISTANCE.toDays()
                    + " days of now, was " + runAt);
        }
        if (options.unique() == null) {
            return new NewJob(kind, queue, argsJson, options.priority(), options.maxAttempts(), runAt);
        }
        if (queueSettings.maxPending().isPresent()) {
            throw new InvalidJobException("invalid_unique", "unique jobs cannot go to a bounded queue (max-pending) "
                    + "yet: " + queue);
        }
        return new NewJob(kind, queue, argsJson, options.priority(), options.maxAttempts(), runAt,
                UniqueKey.of(options.unique(), kind, queue, argsJson, now), options.unique().sortedStates());
    }

    /**
     * Checks that {@code json} is one JSON object (or null, for no arguments) and answers it unchanged; anything else
     * is refused before it reaches the database.
     */
    public static String requireObject(String json) {
        if (json == null) {
            return null;
        }
        JsonValue value;
        try (JsonReader reader = Jsonp.PROVIDER.createReader(new StringReader(json))) {
            value = reader.readValue();
        } catch (JsonException e) {
            throw new InvalidJobException("invalid_args", "args must be a JSON object: " + e.getMessage(), e);
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new InvalidJobException("invalid_args", "args must be a JSON object, not " + value.getValueType());
        }
        return json;
    }

    static int utf8Length(String s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
