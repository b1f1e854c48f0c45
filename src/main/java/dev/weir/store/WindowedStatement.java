package dev.weir.store;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A statement whose window of admission slots is written into its text, in place of {@code {window}}, instead of
 * being bound (ADR 0038): PostgreSQL's generic plan then reckons on the window's real size, so its default plan choice
 * keeps that plan rather than planning the statement afresh at every execution. Windows are powers of two, so a
 * statement has few texts; each is made once and is the same string every time, so a connection prepares it once.
 * Thread-safe.
 */
final class WindowedStatement {

    static final String WINDOW = "{window}";

    private final String template;
    private final ConcurrentMap<Long, String> texts = new ConcurrentHashMap<>();

    WindowedStatement(String template) {
        if (!template.contains(WINDOW)) {
            throw new IllegalArgumentException("a windowed statement has " + WINDOW + " in its text");
        }
        this.template = Objects.requireNonNull(template);
    }

    /** The statement's text for a window of {@code window} slots, a power of two. */
    String text(long window) {
        if (window < 1 || Long.bitCount(window) != 1) {
            throw new IllegalArgumentException("a window is a power of two, not " + window);
        }
        return texts.computeIfAbsent(window, w -> template.replace(WINDOW, Long.toString(w)));
    }
}
