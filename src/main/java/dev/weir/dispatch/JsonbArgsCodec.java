package dev.weir.dispatch;

import dev.weir.json.JsonText;
import dev.weir.json.Jsonp;
import jakarta.json.JsonException;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbException;
import java.io.StringReader;

/**
 * {@link ArgsCodec} with JSON-B: records and beans in, JSON objects out. Arguments that are JSON-P values already
 * ({@code JsonObject}, and kinds declared with a {@code JsonValue} type) skip the binding: they are written as they
 * are ({@link JsonText}) and read with the JSON-P reader. Binding an empty {@code JsonObject} was about a sixth of the
 * server's CPU per job in batch submissions from the server's own threads.
 */
public final class JsonbArgsCodec implements ArgsCodec {

    private final Jsonb jsonb = JsonbBuilder.create();

    @Override
    public String encode(Object args) {
        if (args == null) {
            return "{}";
        }
        if (args instanceof JsonValue value) {
            return JsonText.of(value);
        }
        return jsonb.toJson(args);
    }

    @Override
    public <A> A decode(String json, Class<A> type) {
        String text = json == null ? "{}" : json;
        if (JsonValue.class.isAssignableFrom(type)) {
            return type.cast(readValue(text, type));
        }
        try {
            return jsonb.fromJson(text, type);
        } catch (JsonbException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The JSON-P value of {@code text}, which must be one value of {@code type}. */
    private static JsonValue readValue(String text, Class<?> type) {
        JsonValue value;
        try (JsonReader reader = Jsonp.PROVIDER.createReader(new StringReader(text))) {
            value = reader.readValue();
        } catch (JsonException e) {
            throw new IllegalArgumentException("not valid JSON: " + e.getMessage(), e);
        }
        if (!type.isInstance(value)) {
            throw new IllegalArgumentException("the args are a JSON " + value.getValueType().name().toLowerCase(
                    java.util.Locale.ROOT) + ", not a " + type.getSimpleName());
        }
        return value;
    }
}
