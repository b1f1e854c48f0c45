package dev.weir.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonTextTest {

    private static final List<String> DOCUMENTS = List.of(
            "{}",
            "[]",
            "{\"to\":\"ada@example.com\",\"n\":3,\"ok\":true,\"no\":false,\"none\":null}",
            "{\"nested\":{\"list\":[1,2.5,-3e10,{\"deep\":[[]]}],\"empty\":{}},\"z\":0,\"a\":1}",
            "{\"quote\":\"say \\\"hi\\\"\",\"slash\":\"a\\\\b/c\",\"lines\":\"one\\ntwo\\r\\tthree\"}",
            "{\"controls\":\"\\u0000\\u0001\\b\\f\\u001f\",\"unicode\":\"é ✓ 😀\",\"key with \\\"quotes\\\"\":1}",
            "{\"big\":123456789012345678901234567890,\"small\":1.0E-7,\"neg\":-0}");

    @Test
    void theTextReadsBackAsTheSameValue() {
        for (String document : DOCUMENTS) {
            JsonValue value = read(document);
            assertEquals(value, read(JsonText.of(value)), document);
        }
    }

    @Test
    void theTextIsWhatJsonPWritesForOrdinaryArguments() {
        for (String document : DOCUMENTS.subList(0, 4)) {
            JsonValue value = read(document);
            assertEquals(value.toString(), JsonText.of(value), document);
        }
    }

    @Test
    void controlCharactersAreEscapedAndNothingElseIs() {
        StringBuilder out = new StringBuilder();
        JsonText.string(out, "a\u0000\u001f\"\\\n/é");
        assertEquals("\"a\\u0000\\u001f\\\"\\\\\\n/é\"", out.toString());
        assertEquals("null", JsonText.string(new StringBuilder(), null).toString());
    }

    private static JsonValue read(String document) {
        try (JsonReader reader = Jsonp.PROVIDER.createReader(new StringReader(document))) {
            return reader.readValue();
        }
    }
}
