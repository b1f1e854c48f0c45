package dev.weir.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.json.Jsonp;
import dev.weir.store.JobState;
import dev.weir.store.JobStore.Inserted;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class SubmitAnswerTest {

    private static JsonObject parse(String text) {
        try (var reader = Jsonp.PROVIDER.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    @Test
    void oneNewJobAnswersItsIdAndStateOnly() {
        JsonObject answer = parse(SubmitAnswer.one(new Inserted(9_007_199_254_740_993L, JobState.SCHEDULED, "q")));
        assertEquals(9_007_199_254_740_993L, answer.getJsonNumber("id").longValueExact());
        assertEquals("scheduled", answer.getString("state"));
        assertEquals(2, answer.size());
    }

    @Test
    void anExistingUniqueJobSaysItIsADuplicate() {
        JsonObject answer = parse(SubmitAnswer.one(new Inserted(7, JobState.AVAILABLE, "q", true)));
        assertEquals(7, answer.getInt("id"));
        assertEquals("available", answer.getString("state"));
        assertTrue(answer.getBoolean("duplicate"));
    }

    @Test
    void aBatchAnswersItsIdsInOrderAndNamesDuplicatesOnlyWhenThereAreAny() {
        JsonObject plain = parse(SubmitAnswer.batch(List.of(new Inserted(3, JobState.AVAILABLE, "q"),
                new Inserted(1, JobState.SCHEDULED, "q"))));
        assertEquals(List.of(3L, 1L), plain.getJsonArray("ids").getValuesAs(JsonNumber::longValue));
        assertFalse(plain.containsKey("duplicates"));

        JsonObject mixed = parse(SubmitAnswer.batch(List.of(new Inserted(5, JobState.AVAILABLE, "q", true),
                new Inserted(6, JobState.AVAILABLE, "q"), new Inserted(4, JobState.RUNNING, "q", true))));
        assertEquals(List.of(5L, 6L, 4L), mixed.getJsonArray("ids").getValuesAs(JsonNumber::longValue));
        assertEquals(List.of(5L, 4L), mixed.getJsonArray("duplicates").getValuesAs(JsonNumber::longValue));

        JsonObject single = parse(SubmitAnswer.batch(List.of(new Inserted(8, JobState.AVAILABLE, "q", true))));
        assertEquals(List.of(8L), single.getJsonArray("duplicates").getValuesAs(JsonNumber::longValue));
    }
}
