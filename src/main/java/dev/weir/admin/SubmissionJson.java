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
                if (!reader.another(']')) {
                    break;
                }
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
            if (!another('}')) {
                break;
            }
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
        int start = at;
        if (!integer() || isNegativeZero(start)) {
            throw GIVE_UP;
        }
        // Out of an int's range: a NumberFormatException, which gives up as any exception here does.
        return Integer.parseInt(text, start, at, 10);
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
        if ((c == '{' || c == '[') && depth >= MAX_DEPTH) {
            throw GIVE_UP;
        }
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
            if (!another('}')) {
                out.append('}');
                return;
            }
            out.append(',');
        }
    }

    private void array(StringBuilder out, int depth) {
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
            if (!another(']')) {
                out.append(']');
                return;
            }
            out.append(',');
        }
    }

    /**
     * A number as JSON-P writes it back: the text itself when it is an integer of at most 18 digits other than
     * {@code -0}, or a decimal whose {@link BigDecimal#toString()} is the text; anything else gives up.
     */
    private void number(StringBuilder out) {
        int start = at;
        if (integer()) {
            if (at - start > (text.charAt(start) == '-' ? 19 : 18) || isNegativeZero(start)) {
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

    /**
     * Reads a number as JSON's grammar has it (no leading zero, no bare point) and tells whether it was an integer,
     * with no fraction and no exponent.
     */
    private boolean integer() {
        if (peek() == '-') {
            at++;
        }
        int intStart = at;
        digits();
        if (at - intStart > 1 && text.charAt(intStart) == '0') {
            throw GIVE_UP;
        }
        boolean whole = true;
        if (at < text.length() && text.charAt(at) == '.') {
            at++;
            digits();
            whole = false;
        }
        if (at < text.length() && (text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
            at++;
            if (at < text.length() && (text.charAt(at) == '+' || text.charAt(at) == '-')) {
                at++;
            }
            digits();
            whole = false;
        }
        return whole;
    }

    /** Whether the integer just read from start is {@code -0}, which JSON-P writes back as {@code 0}. */
    private boolean isNegativeZero(int start) {
        return at - start == 2 && text.startsWith("-0", start);
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
        int end = plainEnd();
        if (end >= 0) {
            out.append(text, at - 1, end + 1);
            at = end + 1;
            return;
        }
        JsonText.string(out, escaped());
    }

    /** A string's value, its opening quote read. */
    private String string() {
        int end = plainEnd();
        if (end >= 0) {
            String value = text.substring(at, end);
            at = end + 1;
            return value;
        }
        return escaped();
    }

    /** Where the string being read closes when no escape comes before its closing quote; -1 when one does. */
    private int plainEnd() {
        for (int i = at; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                return i;
            }
            if (c == '\\') {
                return -1;
            }
            if (c < 0x20) {
                throw GIVE_UP;
            }
        }
        throw GIVE_UP;
    }

    /** A string's value read a character at a time, its escapes decoded, up to and past its closing quote. */
    private String escaped() {
        StringBuilder value = new StringBuilder();
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

    /**
     * After a member or an item: true, past the comma, when another follows; false, past {@code close}, when none does.
     */
    private boolean another(char close) {
        space();
        char c = next();
        if (c == close) {
            return false;
        }
        if (c != ',') {
            throw GIVE_UP;
        }
        space();
        return true;
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
