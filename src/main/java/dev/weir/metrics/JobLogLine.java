package dev.weir.metrics;

/**
 * The one shape of Weir's job lifecycle log lines, so that one {@code grep} finds every event of a job, a queue or a
 * kind:
 *
 * <pre>weir.job &lt;event&gt; queue=&lt;queue&gt; kind=&lt;kind&gt; id=&lt;id&gt; attempt=&lt;n&gt; [key=value ...]</pre>
 *
 * for example {@code weir.job failed queue=emails kind=welcome-email id=123 attempt=1 run_ms=12 retry_in_ms=1043
 * error="java.io.IOException: connection reset"}. The four fields after the event always come, in this order. A
 * value is written bare when it holds only letters, digits and {@code . _ - : / @ +}; otherwise it is quoted, with
 * {@code \} and {@code "} escaped and line breaks and tabs written as {@code \n}, {@code \r}, {@code \t}, so a line
 * stays one line. A value longer than {@value #MAX_VALUE} characters is cut, ending in {@code …}. Pure: no logging
 * here.
 */
public final class JobLogLine {

    /** The first word of every line (also the name of the logger that writes them). */
    public static final String PREFIX = "weir.job";
    /** Values are cut to this many characters: an error's first line is enough in a log line. */
    public static final int MAX_VALUE = 300;

    private JobLogLine() {
    }

    /**
     * The line of {@code event}; {@code more} are further fields as key, value pairs (a null value is left out).
     *
     * @throws IllegalArgumentException if {@code more} is not made of pairs
     */
    public static String format(JobEvent event, String queue, String kind, long id, int attempt, String... more) {
        if (more.length % 2 != 0) {
            throw new IllegalArgumentException("fields come in key, value pairs: " + more.length + " strings");
        }
        StringBuilder line = new StringBuilder(96).append(PREFIX).append(' ').append(event.label());
        field(line, "queue", queue);
        field(line, "kind", kind);
        line.append(" id=").append(id);
        line.append(" attempt=").append(attempt);
        for (int i = 0; i < more.length; i += 2) {
            if (more[i + 1] != null) {
                field(line, more[i], more[i + 1]);
            }
        }
        return line.toString();
    }

    /** The first line of a (multi-line) text such as a stack trace. */
    public static String firstLine(String text) {
        if (text == null) {
            return null;
        }
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl).stripTrailing();
    }

    private static void field(StringBuilder line, String key, String value) {
        line.append(' ').append(key).append('=');
        value(line, value == null ? "" : value);
    }

    static void value(StringBuilder line, String value) {
        String v = value.length() <= MAX_VALUE ? value : value.substring(0, MAX_VALUE - 1) + "…";
        if (bare(v)) {
            line.append(v);
            return;
        }
        line.append('"');
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '"' -> line.append("\\\"");
                case '\\' -> line.append("\\\\");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> line.append(c);
            }
        }
        line.append('"');
    }

    private static boolean bare(String v) {
        if (v.isEmpty()) {
            return false;
        }
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-' || c == ':' || c == '/' || c == '@' || c == '+';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
