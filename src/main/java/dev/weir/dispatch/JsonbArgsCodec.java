package dev.weir.dispatch;

import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbException;

/** {@link ArgsCodec} with JSON-B: records and beans in, JSON objects out. */
public final class JsonbArgsCodec implements ArgsCodec {

    private final Jsonb jsonb = JsonbBuilder.create();

    @Override
    public String encode(Object args) {
        return args == null ? "{}" : jsonb.toJson(args);
    }

    @Override
    public <A> A decode(String json, Class<A> type) {
        try {
            return jsonb.fromJson(json == null ? "{}" : json, type);
        } catch (JsonbException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
