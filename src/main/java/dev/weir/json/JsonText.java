package dev.weir.json;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Map;

/**
 * JSON values written as compact text, with a {@link StringBuilder} and nothing else. A JSON-P value's own
 * {@code toString()} builds a writer and a generator each time: for the arguments of each job of a batch submitted
 * over HTTP that was about 8 % of the server's samples in a flight recording. The text is valid JSON for any value;
 * key order is the value's own, as {@code toString()} keeps it.
 */
public final class JsonText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonText() {
    }

    /** {@code value} as compact JSON text. */
    public static String of(JsonValue value) {
        StringBuilder out = new StringBuilder(64);
        write(out, value);
        return out.toString();
    }

    /** Appends {@code value} as compact JSON text. */
    public static StringBuilder write(StringBuilder out, JsonValue value) {
        switch (value.getValueType()) {
            case OBJECT -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, JsonValue> e : ((JsonObject) value).entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    string(out, e.getKey()).append(':');
                    write(out, e.getValue());
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                JsonArray array = (JsonArray) value;
                for (int i = 0; i < array.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(out, array.get(i));
                }
                out.append(']');
            }
            case STRING -> string(out, ((JsonString) value).getString());
            // A number's text as it was read; true, false and null as themselves.
            default -> out.append(value.toString());
        }
        return out;
    }

    /** Appends {@code value} as a JSON string literal, or {@code null} when it is null. */
    public static StringBuilder string(StringBuilder out, String value) {
        if (value == null) {
            return out.append("null");
        }
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }
}
