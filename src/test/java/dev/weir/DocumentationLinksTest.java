package dev.weir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documentation links to itself a great deal (README to docs, ADRs to each other, anchors to sections). Every
 * relative link of the repository's Markdown must reach a file that exists, and a link to a section of a Markdown file
 * must name a heading that file has, as GitHub derives its anchor: lower case, punctuation dropped, spaces as hyphens.
 * And every decision record must be linked from the records' index.
 */
class DocumentationLinksTest {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    @Test
    void everyRelativeLinkReachesAFileAndEverySectionLinkAHeading() throws IOException {
        List<Path> files = new ArrayList<>(List.of(Path.of("README.md"), Path.of("CHANGELOG.md")));
        for (String folder : List.of("bench", "docs")) {
            try (Stream<Path> found = Files.walk(Path.of(folder))) {
                found.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
            }
        }
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path file : files) {
            for (String target : links(file)) {
                if (target.matches("^[a-z]+:.*")) {
                    continue;   // http:, https:, mailto:
                }
                checked++;
                int hash = target.indexOf('#');
                String path = hash < 0 ? target : target.substring(0, hash);
                Path to = path.isEmpty() ? file : file.resolveSibling(path).normalize();
                if (!Files.exists(to)) {
                    broken.add(file + ": " + target + " (no such file)");
                } else if (hash >= 0 && to.toString().endsWith(".md")
                        && !anchors(to).contains(target.substring(hash + 1))) {
                    broken.add(file + ": " + target + " (no such heading)");
                }
            }
        }
        assertTrue(checked >= 100, "found only " + checked + " relative links");
        assertEquals(List.of(), broken);
    }

    /** The targets of the file's Markdown links, outside fenced code. */
    private static List<String> links(Path file) throws IOException {
        List<String> found = new ArrayList<>();
        for (String line : prose(file)) {
            Matcher m = LINK.matcher(line);
            while (m.find()) {
                found.add(m.group(1));
            }
        }
        return found;
    }

    /** The anchors GitHub gives the file's headings. */
    private static Set<String> anchors(Path file) throws IOException {
        Set<String> anchors = new HashSet<>();
        for (String line : prose(file)) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                anchors.add(anchor(m.group(1)));
            }
        }
        return anchors;
    }

    private static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
    }

    private static List<String> prose(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(file)) {
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced) {
                lines.add(line);
            }
        }
        return lines;
    }

    @Test
    void everyDecisionRecordIsInTheIndex() throws IOException {
        String index = Files.readString(Path.of("docs", "adr", "README.md"));
        List<String> missing = new ArrayList<>();
        int records = 0;
        try (Stream<Path> adrs = Files.list(Path.of("docs", "adr"))) {
            for (Path adr : adrs.filter(p -> p.getFileName().toString().matches("\\d{4}-.*\\.md")).sorted().toList()) {
                records++;
                if (!index.contains("(" + adr.getFileName() + ")")) {
                    missing.add(adr.getFileName().toString());
                }
            }
        }
        assertTrue(records >= 40, "found only " + records + " decision records");
        assertEquals(List.of(), missing, "records not linked from docs/adr/README.md");
    }

    @Test
    void anchorsAreDerivedAsGitHubDoes() {
        assertEquals("securing-weir", anchor("Securing Weir"));
        assertEquals("weirs-keys", anchor("Weir's keys"));
        assertEquals("back-pressure-when-a-queue-is-full", anchor("Back-pressure: when a queue is full"));
    }
}
