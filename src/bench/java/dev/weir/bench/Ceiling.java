package dev.weir.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
 *
 * <p>A cell can also be {@linkplain #again run again} on its own, right beside a figure measured against it: on a
 * machine whose speed drifts within minutes, a ratio to a cell measured seconds away says more than one to the cell
 * measured at the start of the run (ADR 0015). That runs the script's own SQL files with {@code pgbench}, as the script
 * does, in the script's database, whose table the whole run created.
 */
final class Ceiling {

    /** The cells every figure is compared with, by the names the script prints. */
    static final String ENQUEUE_1 = "enqueue, 1 per commit";
    static final String ENQUEUE_100 = "enqueue, 100 per commit";
    static final String CLAIM_1 = "claim+complete, k=1";
    static final String CLAIM_10 = "claim+complete, k=10";
    static final String CLAIM_100 = "claim+complete, k=100";

    private static final Pattern CELL = Pattern.compile("^(.*?)\\s+(\\d+) jobs/s\\s*$");
    private static final Pattern CLAIM = Pattern.compile("^claim\\+complete, k=(\\d+)$");
    /** The database the script creates and measures in. */
    private static final String DATABASE = "weir_ceiling";

    private final Map<String, Double> cells;
    /** The script, for cells run again; null when there is none. */
    private final Path script;

    private Ceiling(Map<String, Double> cells, Path script) {
        this.cells = cells;
        this.script = script;
    }

    static Ceiling none() {
        return new Ceiling(Map.of(), null);
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
        return new Ceiling(cells, script);
    }

    /**
     * Runs one cell again as the script runs it, with {@code clients} clients for {@code seconds}, and answers its
     * jobs/s; empty when there is no script or the script printed no such cell. The enqueue cells start from an
     * emptied table; a claim+complete cell with k first loads k × 40,000 ready jobs (at most 2,000,000), as the
     * script does.
     */
    OptionalDouble again(String cell, int clients, int seconds) throws IOException, InterruptedException {
        if (script == null || !cells.containsKey(cell)) {
            return OptionalDouble.empty();
        }
        Path dir = script.toAbsolutePath().getParent();
        List<String> pgbench = new ArrayList<>(List.of("pgbench", "-d", DATABASE, "-n", "-c",
                Integer.toString(clients), "-j", "2", "-T", Integer.toString(seconds)));
        String counted;
        Matcher claim = CLAIM.matcher(cell);
        if (claim.matches()) {
            int k = Integer.parseInt(claim.group(1));
            run(List.of("psql", "-d", DATABASE, "-q", "-v", "n=" + Math.min(k * 40_000, 2_000_000), "-f",
                    dir.resolve("preload.sql").toString()));
            pgbench.addAll(List.of("-f", dir.resolve("claim_complete.sql").toString(), "-D", "k=" + k));
            counted = "WHERE state = 2";
        } else if (cell.equals(ENQUEUE_1) || cell.equals(ENQUEUE_100)) {
            run(List.of("psql", "-d", DATABASE, "-qc", "TRUNCATE ceiling_jobs RESTART IDENTITY"));
            pgbench.addAll(List.of("-f", dir.resolve(cell.equals(ENQUEUE_1) ? "enqueue_1.sql" : "enqueue_100.sql")
                    .toString()));
            counted = "";
        } else {
            return OptionalDouble.empty();
        }
        run(pgbench);
        String rows = run(List.of("psql", "-d", DATABASE, "-qAtc", "SELECT count(*) FROM ceiling_jobs " + counted));
        return OptionalDouble.of(Long.parseLong(rows.trim()) / (double) seconds);
    }

    /** Runs a command to its end; answers what it printed, or fails with it when it exits with an error. */
    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        if (exit != 0) {
            throw new IOException(command.get(0) + " exited with " + exit + ": " + out.strip());
        }
        return out;
    }

    OptionalDouble cell(String name) {
        Double v = cells.get(name);
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    Map<String, Double> cells() {
        return cells;
    }
}
