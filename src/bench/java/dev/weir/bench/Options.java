package dev.weir.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one run measures and how big it is, from the command line ({@code bench/run.sh --help} lists it).
 *
 * @param scenarios the scenarios to run, in the order they run
 * @param maxPending the bound of the queue {@code bounded}: 4 × {@code jobs}, at least {@link #MIN_MAX_PENDING}, so
 *     that nothing the scenarios submit is refused (a bounded queue keeps one slot row per unit of its bound)
 * @param ceiling the PostgreSQL ceiling script, or null to run without it (no ratios to the ceiling then)
 * @param java the {@code java} that starts the server (the harness's own); {@code jcmd} is beside it
 * @param analyze each drain analyses {@code weir.jobs} once its backlog is in ({@code --analyze})
 */
record Options(List<String> scenarios, Path ceiling, int ceilingClients, int ceilingSeconds, int jobs, int workers,
        int rounds, int warmUpSeconds, int samples, int enqueueSeconds, int heapJobs, long maxPending, int port,
        String database, Path jar, Path out, String java, boolean analyze) {

    /**
     * The least bound of the queue {@code bounded}. Its in-process rounds submit for 12 s to the paused queue, emptied
     * only before each round: 16 threads of a warm server on a machine of fast commits stored about 10,000 single
     * jobs a second there, so a bound of 100,000 (until 2026-12-05) was reached and the last calls of a round were
     * refused.
     */
    static final long MIN_MAX_PENDING = 500_000L;

    /** Every scenario, in the order a full run takes them: the hard-reserved server's, then the weighted one's. */
    static final List<String> ALL = List.of("drain", "latency", "enqueue", "queues", "admission", "cost", "heap",
            "history", "weighted");

    static final String USAGE = """
            usage: bench/run.sh [options] [scenario ...]
              scenarios: drain latency enqueue queues admission cost heap history weighted (default: all of them;
                         weighted compares with drain, so it brings drain along)
              --ceiling=PATH        the PostgreSQL ceiling script (default: $CEILING); without one, no ratios
              --no-ceiling          skip the ceiling even if $CEILING is set
              --quick               small sizes for a smoke run: --jobs=5000 --rounds=1 --samples=100
                                    --enqueue-seconds=3 --heap-jobs=20000 --ceiling-seconds=5 --warm-up-seconds=5
              --jobs=N              jobs per drain (20000; the default-settings drain takes ten times as many)
              --workers=N           permits of the one-queue setups; 8 queues get N/8 each (16)
              --rounds=N            measured rounds per drain setup, after one warm-up round (3)
              --warm-up-seconds=N   each server first drains its setups in turn for this long, unmeasured, so that
                                    the JIT has compiled the hot paths before anything is measured (60; 0: none)
              --samples=N           pickup-latency samples (300)
              --enqueue-seconds=N   measured seconds per enqueue run (10)
              --heap-jobs=N         backlog of the heap scenario (100000)
              --ceiling-seconds=N   seconds per ceiling cell (15); --ceiling-clients=N (16)
              --port=N              the server's HTTP port, HTTPS is N+1 (9680)
              --database=NAME       the benchmark database, whose schema weir is dropped first ($BENCH_DATABASE
                                    or weir_harness)
              --out=FILE            the JSON results (target/bench/results.json)
              --jar=FILE            the runnable jar to measure (target/weir-server.jar), e.g. another build
              --analyze             every drain analyses weir.jobs once its backlog is in, as autovacuum would
                                    after so many inserts (off: the table has no column statistics, as on a
                                    database whose autovacuum is off)
            PostgreSQL is reached through PGHOST, PGPORT, PGUSER, PGPASSWORD (default 127.0.0.1:5432, postgres).
            """;

    static Options parse(String[] args) {
        String ceilingEnv = System.getenv("CEILING");
        Path ceiling = ceilingEnv == null || ceilingEnv.isBlank() ? null : Path.of(ceilingEnv);
        int ceilingClients = 16;
        int ceilingSeconds = 15;
        int jobs = 20_000;
        int workers = 16;
        int rounds = 3;
        int warmUpSeconds = 60;
        int samples = 300;
        int enqueueSeconds = 10;
        int heapJobs = 100_000;
        int port = 9680;
        String dbEnv = System.getenv("BENCH_DATABASE");
        String database = dbEnv == null || dbEnv.isBlank() ? "weir_harness" : dbEnv;
        Path out = Path.of("target/bench/results.json");
        Path jar = Path.of("target/weir-server.jar");
        boolean analyze = false;
        Set<String> scenarios = new LinkedHashSet<>();
        for (String arg : args) {
            String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : "";
            String key = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            switch (key) {
                case "--ceiling" -> ceiling = Path.of(value);
                case "--no-ceiling" -> ceiling = null;
                case "--quick" -> {
                    jobs = 5_000;
                    rounds = 1;
                    samples = 100;
                    enqueueSeconds = 3;
                    heapJobs = 20_000;
                    ceilingSeconds = 5;
                    warmUpSeconds = 5;
                }
                case "--jobs" -> jobs = positive(key, value);
                case "--workers" -> workers = positive(key, value);
                case "--rounds" -> rounds = positive(key, value);
                case "--warm-up-seconds" -> warmUpSeconds = value.equals("0") ? 0 : positive(key, value);
                case "--samples" -> samples = positive(key, value);
                case "--enqueue-seconds" -> enqueueSeconds = positive(key, value);
                case "--heap-jobs" -> heapJobs = positive(key, value);
                case "--ceiling-seconds" -> ceilingSeconds = positive(key, value);
                case "--ceiling-clients" -> ceilingClients = positive(key, value);
                case "--port" -> port = positive(key, value);
                case "--database" -> database = value;
                case "--out" -> out = Path.of(value);
                case "--jar" -> jar = Path.of(value);
                case "--analyze" -> analyze = true;
                case "-h", "--help" -> throw new IllegalArgumentException("");
                default -> {
                    if (!ALL.contains(arg)) {
                        throw new IllegalArgumentException("unknown scenario or option: " + arg);
                    }
                    scenarios.add(arg);
                }
            }
        }
        if (scenarios.isEmpty()) {
            scenarios.addAll(ALL);
        }
        if (scenarios.contains("weighted")) {
            scenarios.add("drain");
        }
        List<String> ordered = new ArrayList<>(ALL);
        ordered.retainAll(scenarios);
        if (!database.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("--database: a plain lower-case name, not " + database);
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        return new Options(List.copyOf(ordered), ceiling, ceilingClients, ceilingSeconds, jobs, workers, rounds,
                warmUpSeconds, samples, enqueueSeconds, heapJobs, Math.max(4L * jobs, MIN_MAX_PENDING), port, database,
                jar, out, java, analyze);
    }

    private static int positive(String key, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(key + ": a whole number above 0, not '" + value + "'");
    }
}
