package dev.weir.store;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * PostgreSQL array literals ({@code {"a","b",NULL}}), for passing a column of values as one text parameter that the
 * statement casts to an array and unnests: cheaper for PostgreSQL to take apart than a JSON document of the same rows
 * (ADR 0030). A text element is quoted, so that any text survives; a null element is SQL {@code NULL}. Numbers and
 * booleans need no quotes, and are written straight into the literal.
 */
public final class PgArrays {

    private PgArrays() {
    }

    /** The literal of {@code values}, each element as {@code element} renders it (null for {@code NULL}). */
    public static <T> String literal(List<T> values, Function<T, String> element) {
        return elements(values, 16, (out, value) -> quoted(out, element.apply(value)));
    }

    /** Appends {@code text} as a quoted element, or {@code NULL}. */
    private static void quoted(StringBuilder out, String text) {
        if (text == null) {
            out.append("NULL");
            return;
        }
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        out.append('"');
    }

    /** The literal of {@code values} as whole numbers ({@code bigint[]}, {@code integer[]}, …), none of them null. */
    public static <T> String longs(List<T> values, ToLongFunction<T> element) {
        return elements(values, 12, (out, value) -> out.append(element.applyAsLong(value)));
    }

    /** The literal of {@code values} as booleans ({@code boolean[]}), none of them null. */
    public static <T> String booleans(List<T> values, Predicate<T> element) {
        return elements(values, 2, (out, value) -> out.append(element.test(value) ? 't' : 'f'));
    }

    /** A literal of {@code values}, each element appended as {@code element} writes it, separated by commas. */
    private static <T> String elements(List<T> values, int charsEach, BiConsumer<StringBuilder, T> element) {
        StringBuilder out = new StringBuilder(values.size() * charsEach + 2).append('{');
        for (T value : values) {
            if (out.length() > 1) {
                out.append(',');
            }
            element.accept(out, value);
        }
        return out.append('}').toString();
    }
}
