package dev.weir.store;

import java.util.List;
import java.util.function.Function;

/**
 * PostgreSQL array literals ({@code {"a","b",NULL}}), for passing a column of values as one text parameter that the
 * statement casts to an array and unnests: cheaper for PostgreSQL to take apart than a JSON document of the same rows
 * (ADR 0030). Every element is quoted, so that any text survives; a null element is SQL {@code NULL}.
 */
public final class PgArrays {

    private PgArrays() {
    }

    /** The literal of {@code values}, each element as {@code element} renders it (null for {@code NULL}). */
    public static <T> String literal(List<T> values, Function<T, String> element) {
        StringBuilder out = new StringBuilder(values.size() * 16 + 2).append('{');
        for (T value : values) {
            if (out.length() > 1) {
                out.append(',');
            }
            String text = element.apply(value);
            if (text == null) {
                out.append("NULL");
                continue;
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
        return out.append('}').toString();
    }
}
