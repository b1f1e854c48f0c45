package dev.weir.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.json.Jsonp;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

class JsonbArgsCodecTest {

    public record Greeting(String to, int times) {
    }

    private final JsonbArgsCodec codec = new JsonbArgsCodec();

    @Test
    void jsonObjectsAreWrittenAsTheyAre() {
        JsonObject args = Jsonp.PROVIDER.createObjectBuilder().add("to", "ada").add("n", 3)
                .add("tags", Jsonp.PROVIDER.createArrayBuilder().add("a").add(JsonValue.NULL)).build();
        String json = codec.encode(args);
        assertEquals("{\"to\":\"ada\",\"n\":3,\"tags\":[\"a\",null]}", json);
        assertEquals(args, codec.decode(json, JsonObject.class));
        assertEquals("{}", codec.encode(JsonValue.EMPTY_JSON_OBJECT));
        assertEquals("{}", codec.encode(null));
    }

    @Test
    void jsonValueTypesAreReadWithoutBinding() {
        assertEquals(2, codec.decode("{\"a\":{\"b\":[1,2.5]}}", JsonObject.class).getJsonObject("a")
                .getJsonArray("b").size());
        assertInstanceOf(JsonObject.class, codec.decode("{\"a\":1}", JsonValue.class));
        assertInstanceOf(JsonObject.class, codec.decode("{\"a\":1}", JsonStructure.class));
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, codec.decode(null, JsonObject.class));
    }

    @Test
    void aValueOfAnotherShapeOrBrokenJsonIsAnIllegalArgument() {
        IllegalArgumentException shape = assertThrows(IllegalArgumentException.class,
                () -> codec.decode("{\"a\":1}", JsonArray.class));
        assertTrue(shape.getMessage().contains("JSON object, not a JsonArray"), shape.getMessage());
        IllegalArgumentException broken = assertThrows(IllegalArgumentException.class,
                () -> codec.decode("{\"a\":", JsonObject.class));
        assertTrue(broken.getMessage().contains("not valid JSON"), broken.getMessage());
        assertThrows(IllegalArgumentException.class, () -> codec.decode("{\"to\":", Greeting.class));
    }

    @Test
    void recordsStillGoThroughJsonBinding() {
        String json = codec.encode(new Greeting("ada", 2));
        assertTrue(json.contains("\"to\":\"ada\"") && json.contains("\"times\":2"), json);
        assertEquals(new Greeting("ada", 2), codec.decode(json, Greeting.class));
    }
}
