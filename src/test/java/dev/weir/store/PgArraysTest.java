package dev.weir.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class PgArraysTest {

    @Test
    void quotesEveryElementEscapesQuotesAndBackslashesAndWritesNullsBare() {
        List<String> values = Arrays.asList("a", null, "x\"y\\z", "{}", "NULL", "", "a,b c");
        assertEquals("{\"a\",NULL,\"x\\\"y\\\\z\",\"{}\",\"NULL\",\"\",\"a,b c\"}",
                PgArrays.literal(values, Function.identity()));
    }

    @Test
    void anEmptyListIsAnEmptyArray() {
        assertEquals("{}", PgArrays.literal(List.<String>of(), Function.identity()));
    }

    @Test
    void rendersEachElementWithTheGivenFunction() {
        assertEquals("{\"1\",\"20\"}", PgArrays.literal(List.of(1, 20), i -> Integer.toString(i)));
    }

    @Test
    void writesNumbersAndBooleansBare() {
        assertEquals("{1,-20,9223372036854775807}", PgArrays.longs(List.of(1L, -20L, Long.MAX_VALUE), Long::longValue));
        assertEquals("{t,f,t}", PgArrays.booleans(List.of(true, false, true), Boolean::booleanValue));
        assertEquals("{}", PgArrays.longs(List.<Long>of(), Long::longValue));
        assertEquals("{}", PgArrays.booleans(List.<Boolean>of(), Boolean::booleanValue));
    }
}
