package dev.weir.submit;

import dev.weir.api.Unique;
import dev.weir.json.Jsonp;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.TreeMap;

/**
 * The key that makes a submission unique ({@link Unique}): the SHA-256, in hex, of the kind, and — as asked — the
 * queue, the arguments as canonical JSON, and the number of the current period window. Pure.
 */
public final class UniqueKey {

    private UniqueKey() {
    }

    /**
     * @param argsJson the job's arguments, a JSON object or null
     * @param now      the submission time, which picks the period window
     */
    public static String of(Unique unique, String kind, String queue, String argsJson, Instant now) {
        StringBuilder key = new StringBuilder("kind=").append(kind);
        if (unique.byQueue()) {
            key.append("\nqueue=").append(queue);
        }
        if (unique.byArgs()) {
            key.append("\nargs=").append(canonical(argsJson == null ? "{}" : argsJson));
        }
        if (unique.period() != null) {
            long periodMs = unique.period().toMillis();
            key.append("\nperiod=").append(periodMs).append('#').append(Math.floorDiv(now.toEpochMilli(), periodMs));
        }
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha.digest(key.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    /** JSON with object members in key order and no spacing, so equal values give equal text. */
    static String canonical(String json) {
        try (JsonReader reader = Jsonp.PROVIDER.createReader(new StringReader(json))) {
            StringBuilder out = new StringBuilder(json.length());
            write(reader.readValue(), out);
            return out.toString();
        }
    }

    private static void write(JsonValue value, StringBuilder out) {
        switch (value.getValueType()) {
            case OBJECT -> {
                JsonObject object = value.asJsonObject();
                out.append('{');
                boolean first = true;
                for (var e : new TreeMap<>(object).entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    out.append(Jsonp.PROVIDER.createValue(e.getKey()).toString()).append(':');
                    write(e.getValue(), out);
                }
                out.append('}');
            }
            case ARRAY -> {
                JsonArray array = value.asJsonArray();
                out.append('[');
                for (int i = 0; i < array.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(array.get(i), out);
                }
                out.append(']');
            }
            case STRING -> out.append(Jsonp.PROVIDER.createValue(((JsonString) value).getString()).toString());
            default -> out.append(value.toString());
        }
    }
}
