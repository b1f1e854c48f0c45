package dev.weir.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PostgreSQL ceiling: what the database alone does with the smallest queue table, measured by an external
 * script in the same run, on the same server, just before Weir is measured. The script is not part of Weir; the
 * harness is told where it is and reads its output, one line per cell: {@code <cell name>  <n> jobs/s}.
 *
 * <p>The script runs with the harness's environment, so it reaches PostgreSQL through the same libpq variables
 * ({@code PGHOST}, {@code PGPORT}, {@code PGUSER}) as the harness.
 */
final class Ceiling {

    /** The cells every figure is compared with, by the names the script prints. */
    static final String ENQUEUE_1 = "enqueue, 1 per commit";
    static final String ENQUEUE_100 = "enqueue, 100 per commit";
    static final String CLAIM_1 = "claim+complete, k=1";
    static final String CLAIM_10 = "claim+complete, k=10";
    static final String CLAIM_100 = "claim+complete, k=100";

    private static final Pattern CELL = Pattern.compile("^(.*?)\\s+(\\d+) jobs/s\\s*$");

    private final Map<String, Double> cells;

    private Ceiling(Map<String, Double> cells) {
        this.cells = cells;
    }

    static Ceiling none() {
        return new Ceiling(Map.of());
    }

    /** Runs {@code bash <script> <clients> <seconds>}, echoing its lines, and keeps every cell it printed. */
    static Ceiling measure(Path script, int clients, int seconds) throws IOException, InterruptedException {
        if (!Files.isRegularFile(script)) {
            throw new IOException("no ceiling script at " + script);
        }
        Process p = new ProcessBuilder("bash", script.toAbsolutePath().toString(), Integer.toString(clients),
                Integer.toString(seconds))
                .redirectErrorStream(true)
                .start();
        Map<String, Double> cells = new LinkedHashMap<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                System.out.println("  " + line);
                Matcher m = CELL.matcher(line);
                if (m.matches()) {
                    cells.put(m.group(1).trim(), Double.parseDouble(m.group(2)));
                }
            }
        }
        int exit = p.waitFor();
        if (exit != 0) {
            throw new IOException("the ceiling script exited with " + exit);
        }
        return new Ceiling(cells);
    }

    OptionalDouble cell(String name) {
        Double v = cells.get(name);
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    Map<String, Double> cells() {
        return cells;
    }
}
