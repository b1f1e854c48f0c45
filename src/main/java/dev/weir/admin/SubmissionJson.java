package dev.weir.admin;

import dev.weir.api.JobOptions;
import dev.weir.json.JsonText;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;

/**
 * A submission's body read in one pass straight into its jobs, for the bodies that are plainly valid; {@code null}
 * for any other, which then goes to JSON-P and {@link JobRequestParser} as before (ADR 0045). Pure.
 *
 * <p>Whatever this class answers is what the JSON-P path would answer for the same body, to the character of each
 * job's {@code argsJson} (the compact text {@link JsonText} writes). It gives up, rather than decide, on anything
 * that path would refuse or might read another way: a syntax error anywhere, a field that is unknown, repeated, of
 * the wrong type or out of range, a missing {@code kind}, an unreadable {@code runAt}, a non-null {@code unique}, a
 * key repeated inside {@code args}, a number whose text JSON-P would write differently ({@code -0}, {@code 1e3},
 * integers of more than 18 digits), nesting deeper than {@value #MAX_DEPTH}, an empty batch or one of too many jobs.
 * Every error message therefore stays JSON-P's and the parser's own.
 */
final class SubmissionJson {

    /** The deepest nesting of {@code args} read here; deeper ones go to JSON-P, which has its own limit. */
    static final int MAX_DEPTH = 64;

    /** How many keys of one object are looked through one by one before they go into a hash set. */
    private static final int MANY_KEYS = 16;

    /** Thrown to give up; it carries no stack, so giving up costs no more than a return. */
    private static final RuntimeException GIVE_UP = new RuntimeException("not plainly valid", null, false, false) {
        private static final long serialVersionUID = 1L;
    };

    /** A job's fields; the bit of each is 1 shifted by its place here. */
    private static final String[] FIELDS = {"kind", "queue", "args", "priority", "runAt", "maxAttempts", "unique"};
    private static final int KIND = 1;
    private static final int QUEUE = 2;
    private static final int ARGS = 4;
    private static final int PRIORITY = 8;
    private static final int RUN_AT = 16;
    private static final int MAX_ATTEMPTS = 32;
    private static final int UNIQUE = 64;

    private final String text;
    private int at;

    private SubmissionJson(String text) {
        this.text = text;
    }

    /** The job of a single submission, or null when the body is not plainly one valid job of at most maxChars. */
    static JobRequestParser.Parsed one(String body, int maxChars) {
        if (body == null || body.length() > maxChars) {
            return null;
        }
        SubmissionJson reader = new SubmissionJson(body);
        try {
            reader.space();
            JobRequestParser.Parsed job = reader.job();
            reader.end();
            return job;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The jobs of a batch, or null when the body is not plainly a JSON array of one to maxJobs valid jobs, of at
     * most maxChars.
     */
    static List<JobRequestParser.Parsed> batch(String body, int maxChars, int maxJobs) {
        if (body == null || body.length() > maxChars) {
            return null;
        }
        SubmissionJson reader = new SubmissionJson(body);
        try {
            reader.space();
            reader.expect('[');
            reader.space();
            List<JobRequestParser.Parsed> jobs = new ArrayList<>(Math.min(maxJobs, 1 + body.length() / 16));
            while (true) {
                if (jobs.size() == maxJobs) {
                    return null;
                }
                jobs.add(reader.job());
                reader.space();
                char c = reader.next();
                if (c == ']') {
                    break;
                }
                if (c != ',') {
                    return null;
                }
                reader.space();
            }
            reader.end();
            return jobs;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private JobRequestParser.Parsed job() {
        expect('{');
        space();
        String kind = null;
        String queue = null;
        String args = null;
        String runAt = null;
        Integer priority = null;
        Integer maxAttempts = null;
        int seen = 0;
        while (true) {
            int field = field();
            if ((seen & field) != 0) {
                throw GIVE_UP;
            }
            seen |= field;
            space();
            expect(':');
            space();
            switch (field) {
                case KIND -> kind = stringOrNull();
                case QUEUE -> queue = stringOrNull();
                case ARGS -> args = argsOrNull();
                case PRIORITY -> priority = intOrNull();
                case RUN_AT -> runAt = stringOrNull();
                case MAX_ATTEMPTS -> maxAttempts = intOrNull();
                default -> literal("null");
            }
            space();
            char c = next();
            if (c == '}') {
                break;
            }
            if (c != ',') {
                throw GIVE_UP;
            }
            space();
        }
        if (kind == null) {
            throw GIVE_UP;
        }
        // The same options, built in the same order, as JobRequestParser builds them; a value they refuse gives up.
        JobOptions options = JobOptions.defaults();
        if (queue != null) {
            options = options.queue(queue);
        }
        if (priority != null) {
            options = options.priority(priority);
        }
        if (maxAttempts != null) {
            options = options.maxAttempts(maxAttempts);
        }
        if (runAt != null) {
            options = options.runAt(OffsetDateTime.parse(runAt).toInstant());
        }
        return new JobRequestParser.Parsed(kind, args, options);
    }

    /** A job's field name, as its bit; anything but a known name written plainly gives up. */
    private int field() {
        expect('"');
        int start = at;
        int end = text.indexOf('"', start);
        if (end < 0) {
            throw GIVE_UP;
        }
        at = end + 1;
        for (int i = 0; i < FIELDS.length; i++) {
            if (end - start == FIELDS[i].length() && text.startsWith(FIELDS[i], start)) {
                return 1 << i;
            }
        }
        throw GIVE_UP;
    }

    private String stringOrNull() {
        if (peek() == 'n') {
            literal("null");
            return null;
        }
        expect('"');
        return string();
    }

    /** A whole number that fits an int, written plainly (no sign of zero, fraction or exponent), or null. */
    private Integer intOrNull() {
        if (peek() == 'n') {
            literal("null");
            return null;
        }
        boolean negative = peek() == '-';
        if (negative) {
            at++;
        }
        int digits = at;
        long value = 0;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            value = value * 10 + (text.charAt(at++) - '0');
            if (at - digits > 10) {
                throw GIVE_UP;
            }
        }
        if (at == digits || (text.charAt(digits) == '0' && at - digits > 1) || (negative && value == 0)) {
            throw GIVE_UP;
        }
        value = negative ? -value : value;
        if (value != (int) value) {
            throw GIVE_UP;
        }
        return (int) value;
    }

    /** The args object as the compact text JsonText writes for it, or null for a JSON null. */
    private String argsOrNull() {
        char c = peek();
        if (c == 'n') {
            literal("null");
            return null;
        }
        if (c != '{') {
            throw GIVE_UP;
        }
        StringBuilder out = new StringBuilder(32);
        value(out, 0);
        return out.toString();
    }

    private void value(StringBuilder out, int depth) {
        char c = peek();
        switch (c) {
            case '{' -> object(out, depth + 1);
            case '[' -> array(out, depth + 1);
            case '"' -> {
                at++;
                copyString(out);
            }
            case 't' -> out.append(literal("true"));
            case 'f' -> out.append(literal("false"));
            case 'n' -> out.append(literal("null"));
            default -> number(out);
        }
    }

    private void object(StringBuilder out, int depth) {
        if (depth > MAX_DEPTH) {
            throw GIVE_UP;
        }
        expect('{');
        out.append('{');
        space();
        if (peek() == '}') {
            at++;
            out.append('}');
            return;
        }
        // A list for the few keys of most objects, a set once there are many, so that no object costs its square.
        Collection<String> keys = new ArrayList<>(4);
        while (true) {
            expect('"');
            String key = string();
            // JSON-P keeps one value of a repeated key; which text it would then write is not this class's to guess.
            if (keys.contains(key)) {
                throw GIVE_UP;
            }
            keys.add(key);
            if (keys.size() == MANY_KEYS) {
                keys = new HashSet<>(keys);
            }
            JsonText.string(out, key).append(':');
            space();
            expect(':');
            space();
            value(out, depth);
            space();
            char c = next();
            if (c == '}') {
                out.append('}');
                return;
            }
            if (c != ',') {
                throw GIVE_UP;
            }
            out.append(',');
            space();
        }
    }

    private void array(StringBuilder out, int depth) {
        if (depth > MAX_DEPTH) {
            throw GIVE_UP;
        }
        expect('[');
        out.append('[');
        space();
        if (peek() == ']') {
            at++;
            out.append(']');
            return;
        }
        while (true) {
            value(out, depth);
            space();
            char c = next();
            if (c == ']') {
                out.append(']');
                return;
            }
            if (c != ',') {
                throw GIVE_UP;
            }
            out.append(',');
            space();
        }
    }

    /**
     * A number as JSON-P writes it back: the text itself when it is an integer of at most 18 digits other than
     * {@code -0}, or a decimal whose {@link BigDecimal#toString()} is the text; anything else gives up.
     */
    private void number(StringBuilder out) {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        int intStart = at;
        digits();
        int intDigits = at - intStart;
        if (intDigits > 1 && text.charAt(intStart) == '0') {
            throw GIVE_UP;
        }
        boolean plain = true;
        if (at < text.length() && text.charAt(at) == '.') {
            at++;
            digits();
            plain = false;
        }
        if (at < text.length() && (text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
            at++;
            if (at < text.length() && (text.charAt(at) == '+' || text.charAt(at) == '-')) {
                at++;
            }
            digits();
            plain = false;
        }
        if (plain) {
            if (intDigits > 18 || (at - start == 2 && text.charAt(start) == '-' && text.charAt(intStart) == '0')) {
                throw GIVE_UP;
            }
            out.append(text, start, at);
            return;
        }
        String number = text.substring(start, at);
        if (number.length() > 40 || !new BigDecimal(number).toString().equals(number)) {
            throw GIVE_UP;
        }
        out.append(number);
    }

    /** One or more decimal digits. */
    private void digits() {
        int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        if (at == start) {
            throw GIVE_UP;
        }
    }

    /** Copies a string (its opening quote read) as JsonText writes it: as it stands when it has no escape. */
    private void copyString(StringBuilder out) {
        int start = at;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                out.append('"').append(text, start, i).append('"');
                at = i + 1;
                return;
            }
            if (c == '\\') {
                break;
            }
            if (c < 0x20) {
                throw GIVE_UP;
            }
        }
        JsonText.string(out, string());
    }

    /** A string's value, its opening quote read. */
    private String string() {
        int start = at;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                at = i + 1;
                return text.substring(start, i);
            }
            if (c == '\\') {
                at = i;
                return escaped(new StringBuilder(i - start + 16).append(text, start, i));
            }
            if (c < 0x20) {
                throw GIVE_UP;
            }
        }
        throw GIVE_UP;
    }

    private String escaped(StringBuilder value) {
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == '"') {
                return value.toString();
            }
            if (c < 0x20 || (c == '\\' && at >= text.length())) {
                throw GIVE_UP;
            }
            if (c != '\\') {
                value.append(c);
                continue;
            }
            char e = text.charAt(at++);
            switch (e) {
                case '"', '\\', '/' -> value.append(e);
                case 'b' -> value.append('\b');
                case 'f' -> value.append('\f');
                case 'n' -> value.append('\n');
                case 'r' -> value.append('\r');
                case 't' -> value.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw GIVE_UP;
                    }
                    int code = 0;
                    for (int k = 0; k < 4; k++) {
                        int d = Character.digit(text.charAt(at++), 16);
                        if (d < 0) {
                            throw GIVE_UP;
                        }
                        code = code * 16 + d;
                    }
                    value.append((char) code);
                }
                default -> throw GIVE_UP;
            }
        }
        throw GIVE_UP;
    }

    private String literal(String word) {
        if (!text.startsWith(word, at)) {
            throw GIVE_UP;
        }
        at += word.length();
        return word;
    }

    /** JSON's whitespace: space, tab, line feed, carriage return. */
    private void space() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            at++;
        }
    }

    private void end() {
        space();
        if (at != text.length()) {
            throw GIVE_UP;
        }
    }

    private void expect(char c) {
        if (next() != c) {
            throw GIVE_UP;
        }
    }

    private char next() {
        if (at >= text.length()) {
            throw GIVE_UP;
        }
        return text.charAt(at++);
    }

    private char peek() {
        if (at >= text.length()) {
            throw GIVE_UP;
        }
        return text.charAt(at);
    }

}
