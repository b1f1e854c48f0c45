package dev.weir.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.testing.ServerXml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md is the reference operators read. Its table of keys must name every key {@link SettingsReader}
 * reads, and no key it does not: the keys read are recorded from a real read (one queue, one periodic job), so a key
 * added to the reader without a row in the table, or a row left behind by a key removed, fails here. And every error
 * code the reader can stop a deployment with must be explained there. Its table of the server's variables must give
 * each variable of server-config/server.xml with the default that file gives it.
 */
class ConfigurationDocsTest {

    /** A row of the table: its first cell, a key in backquotes. */
    private static final Pattern ROW = Pattern.compile("^\\| `(weir\\.[^`]+)` \\|", Pattern.MULTILINE);
    /** An error code as the reader's source spells it: a string literal of capitals with at least one underscore. */
    private static final Pattern CODE = Pattern.compile("\"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\"");
    /** A row of the table of the server's variables: the variable and its default cell. */
    private static final Pattern VARIABLE_ROW = Pattern.compile("^\\| `([A-Z_]+)` \\| ([^|]+?) \\|", Pattern.MULTILINE);

    @Test
    void theTableOfKeysNamesExactlyTheKeysTheReaderReads() throws IOException {
        Map<String, String> set = Map.of(
                "weir.queues", "q",
                "weir.cron.c.schedule", "0 2 * * *",
                "weir.cron.c.kind", "report.build",
                "weir.cron.c.queue", "q");
        SortedSet<String> read = new TreeSet<>();
        SettingsReader.read(key -> {
            read.add(key.replace("weir.queue.q.", "weir.queue.<q>.").replace("weir.cron.c.", "weir.cron.<name>."));
            return Optional.ofNullable(set.get(key));
        }, List.of("weir.cron.c.schedule"));

        assertEquals(read, documentedKeys(), "keys read (left) against the rows of docs/configuration.md (right)");
    }

    @Test
    void everyErrorCodeOfTheReaderIsDocumented() throws IOException {
        String source = Files.readString(
                Path.of("src", "main", "java", "dev", "weir", "config", "SettingsReader.java"));
        String doc = Files.readString(Path.of("docs", "configuration.md"));
        Matcher m = CODE.matcher(source);
        SortedSet<String> missing = new TreeSet<>();
        int codes = 0;
        while (m.find()) {
            codes++;
            if (!doc.contains("`" + m.group(1) + "`")) {
                missing.add(m.group(1));
            }
        }
        assertTrue(codes >= 20, "found only " + codes + " error codes in SettingsReader.java");
        assertEquals(new TreeSet<>(), missing, "error codes of SettingsReader not in docs/configuration.md");
    }

    @Test
    void theServersVariablesAreDocumentedWithTheirDefaults() throws IOException {
        Map<String, String> declared = new TreeMap<>();
        ServerXml.variables().forEach((name, value) ->
                declared.put(name, value.isEmpty() ? "empty" : "`" + value + "`"));
        assertTrue(declared.size() >= 8, "found only " + declared.size() + " variables in server.xml");
        String doc = section(Files.readString(Path.of("docs", "configuration.md")), "## The server's variables");
        Map<String, String> documented = new TreeMap<>();
        Matcher r = VARIABLE_ROW.matcher(doc);
        while (r.find()) {
            documented.put(r.group(1), r.group(2));
        }
        documented.keySet().retainAll(declared.keySet());
        assertEquals(declared, documented, "server.xml's variables and defaults (left) against docs/configuration.md");
    }

    private static String section(String doc, String heading) {
        int start = doc.indexOf(heading);
        int end = doc.indexOf("\n## ", start + 1);
        return doc.substring(start, end < 0 ? doc.length() : end);
    }

    private static SortedSet<String> documentedKeys() throws IOException {
        Matcher m = ROW.matcher(section(Files.readString(Path.of("docs", "configuration.md")), "## Weir's keys"));
        SortedSet<String> keys = new TreeSet<>();
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }
}
