package dev.weir.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.api.InvalidJobException;
import jakarta.json.Json;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class JobRequestParserTest {

    private static JsonValue json(String text) {
        return Json.createReader(new StringReader(text)).readValue();
    }

    @Test
    void readsEveryField() {
        JobRequestParser.Parsed p = JobRequestParser.parse(json("""
                {"kind": "k", "queue": "emails", "args": {"a": [1, 2]}, "priority": 1,
                 "runAt": "2030-01-01T10:00:00+02:00", "maxAttempts": 3}"""), "the job");
        assertEquals("k", p.kind());
        assertEquals("emails", p.options().queue());
        assertEquals(1, p.options().priority());
        assertEquals(3, p.options().maxAttempts());
        assertEquals(Instant.parse("2030-01-01T08:00:00Z"), p.options().runAt());
        assertEquals("{\"a\":[1,2]}", p.argsJson());
    }

    @Test
    void nullsMeanDefaults() {
        JobRequestParser.Parsed p = JobRequestParser.parse(json("{\"kind\": \"k\", \"args\": null, \"queue\": null}"), "x");
        assertNull(p.argsJson());
        assertEquals("default", p.options().queue());
        assertEquals(2, p.options().priority());
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', textBlock = """
            []                                         | invalid_request
            {}                                         | invalid_kind
            {"kind": true}                             | invalid_kind
            {"kind": "k", "priority": "1"}             | invalid_priority
            {"kind": "k", "priority": 2.5}             | invalid_priority
            {"kind": "k", "priority": 99999999999}     | invalid_priority
            {"kind": "k", "maxAttempts": -1}           | invalid_max_attempts
            {"kind": "k", "args": "x"}                 | invalid_args
            {"kind": "k", "runAt": "2030-01-01"}       | invalid_run_at
            {"kind": "k", "queue": 3}                  | invalid_queue
            {"kind": "k", "extra": 1}                  | unknown_field
            """)
    void refusesWithTheField(String body, String code) {
        InvalidJobException e = assertThrows(InvalidJobException.class, () -> JobRequestParser.parse(json(body), "job [3]"));
        assertEquals(code, e.code());
        assertTrue(e.getMessage().startsWith("job [3]"), e.getMessage());
    }
}
