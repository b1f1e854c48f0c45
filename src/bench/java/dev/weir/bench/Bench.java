package dev.weir.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The whole-server benchmark: the PostgreSQL ceiling first, then Weir's scenarios against the same PostgreSQL, one
 * table of figures with their ratios, and the same as JSON. {@code bench/run.sh} builds Weir and starts this.
 *
 * <p>Servers run one after the other: a hard-reserved one for every scenario but {@code weighted}, then two weighted
 * ones with the same total workers: one serving only the queue {@code default} (the cost of the mode) and one serving
 * the same queues as the hard-reserved server ({@link Scenarios#queues()}). The weighted server with one queue runs
 * beside a hard-reserved server with the same queue, each on a database of its own, and the two drain in alternate
 * rounds, never at once: the cost of the mode is a small difference, and two servers measured minutes apart differ
 * by more than that on a busy machine.
 */
public final class Bench {

    private Bench() {
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().isEmpty()) {
                System.err.println(e.getMessage());
            }
            System.err.print(Options.USAGE);
            System.exit(2);
            return;
        }
        if (!Files.isRegularFile(options.jar())) {
            System.err.println("no " + options.jar() + ": build first (./mvnw package)");
            System.exit(1);
        }
        Report report = new Report();
        report.run()
                .add("started", Instant.now().toString())
                .add("scenarios", String.join(" ", options.scenarios()))
                .add("jobs", options.jobs()).add("workers", options.workers()).add("rounds", options.rounds())
                .add("analyze", options.analyze())
                .add("cores", Runtime.getRuntime().availableProcessors())
                .add("java", System.getProperty("java.version"))
                .add("loadAverageAtStart", LoadAverage.now());

        Ceiling ceiling = Ceiling.none();
        if (options.ceiling() == null) {
            System.out.println("== no ceiling script given (--ceiling=PATH or CEILING): no ratios to the ceiling");
        } else {
            System.out.printf("== PostgreSQL ceiling (%d clients, %d s per cell)%n", options.ceilingClients(),
                    options.ceilingSeconds());
            ceiling = Ceiling.measure(options.ceiling(), options.ceilingClients(), options.ceilingSeconds());
        }
        var cells = jakarta.json.Json.createObjectBuilder();
        ceiling.cells().forEach(cells::add);
        report.run().add("ceiling", cells);

        BenchDb.Server pg = BenchDb.Server.fromEnvironment();
        BenchDb.ensureDatabase(pg, options.database());
        Scenarios scenarios = new Scenarios(options, ceiling, report);
        Path work = options.out().toAbsolutePath().getParent().resolve("servers");
        deleteTree(work);

        List<String> hard = options.scenarios().stream().filter(s -> !s.equals("weighted")).toList();
        if (!hard.isEmpty()) {
            try (BenchDb stats = BenchDb.open(pg.jdbcUrl("postgres"), pg.user(), pg.password());
                    Running t = start(options, pg, "hard-reserved", "hard-reserved", Scenarios.queues(), work,
                            options.database(), options.port())) {
                scenarios.warmUp(t.target, "hard-reserved",
                        List.of(List.of(Scenarios.DEFAULT), List.of(Scenarios.SHIPPED), Scenarios.EIGHT));
                for (String s : hard) {
                    System.out.println("== " + s + " (hard-reserved)");
                    run(report, s, () -> {
                        switch (s) {
                            case "drain" -> scenarios.drain(t.target);
                            case "latency" -> scenarios.latency(t.target);
                            case "enqueue" -> scenarios.enqueue(t.target);
                            case "queues" -> scenarios.manyQueues(t.target);
                            case "admission" -> scenarios.admission(t.target);
                            case "cost" -> scenarios.cost(t.target, stats);
                            case "heap" -> scenarios.heap(t.target);
                            case "history" -> scenarios.history(t.target);
                            default -> throw new IllegalStateException(s);
                        }
                    });
                }
            }
        }
        if (options.scenarios().contains("weighted")) {
            String besideDb = options.database() + "_beside";
            BenchDb.ensureDatabase(pg, besideDb);
            try (Running t = start(options, pg, "weighted", "weighted-one-queue", List.of(Scenarios.DEFAULT), work,
                    options.database(), options.port());
                    Running h = start(options, pg, "hard-reserved", "hard-reserved-one-queue",
                            List.of(Scenarios.DEFAULT), work, besideDb, options.port() + 10)) {
                System.out.println("== weighted, a server with one queue, beside a hard-reserved one");
                scenarios.warmUp(t.target, "weighted-one-queue", List.of(List.of(Scenarios.DEFAULT)));
                scenarios.warmUp(h.target, "hard-reserved-one-queue", List.of(List.of(Scenarios.DEFAULT)));
                run(report, "weighted", () -> scenarios.weightedOneQueue(t.target, h.target));
            }
            try (Running t = start(options, pg, "weighted", "weighted-many-queues", Scenarios.queues(), work,
                    options.database(), options.port())) {
                System.out.println("== weighted, a server with the same queues as the hard-reserved one");
                scenarios.warmUp(t.target, "weighted-many-queues", List.of(Scenarios.EIGHT, List.of(Scenarios.DEFAULT)));
                run(report, "weighted", () -> scenarios.weightedManyQueues(t.target));
            }
        }

        report.run().add("finished", Instant.now().toString()).add("loadAverageAtEnd", LoadAverage.now());
        report.write(options.out());
        System.out.println();
        System.out.println(report.table());
        System.out.println("Load average (1, 5, 15 min) at the end: " + LoadAverage.now() + "; JSON: " + options.out());
    }

    private interface Step {
        void run() throws Exception;
    }

    /** A scenario that fails is reported as skipped with its error; the others still run. */
    private static void run(Report report, String scenario, Step step) {
        String load = LoadAverage.now();
        System.out.println("  load average (1, 5, 15 min): " + load);
        report.run().add("loadAverageBefore_" + scenario, load);
        try {
            step.run();
        } catch (Exception e) {
            System.out.println("  " + scenario + " failed: " + e);
            report.skipped(scenario, "failed: " + e.getMessage());
        }
    }

    /** A started server with everything the scenarios use, closed in the reverse order. */
    private record Running(Target target, WeirServer server, BenchDb db) implements AutoCloseable {

        @Override
        public void close() throws Exception {
            try {
                db.close();
            } finally {
                server.close();
            }
        }
    }

    private static Running start(Options options, BenchDb.Server pg, String mode, String name, List<String> queues,
            Path work, String database, int port) throws Exception {
        BenchDb db = BenchDb.open(pg.jdbcUrl(database), pg.user(), pg.password());
        db.execute("DROP SCHEMA IF EXISTS weir CASCADE");
        String password = UUID.randomUUID().toString();
        Map<String, String> env = new HashMap<>();
        env.put("WEIR_DB_URL", pg.jdbcUrl(database));
        env.put("WEIR_DB_USER", pg.user());
        if (!pg.password().isEmpty()) {
            env.put("WEIR_DB_PASSWORD", pg.password());
        }
        env.put("WEIR_DIAGNOSTICS_ENABLED", "true");
        env.put("WEIR_ADMIN_PASSWORD", password);
        env.put("WEIR_QUEUES", String.join(",", queues));
        if (mode.equals("weighted")) {
            env.put("WEIR_GLOBAL_MAX_WORKERS", Integer.toString(options.workers()));
        } else {
            for (String q : queues) {
                if (q.equals(Scenarios.SHIPPED)) {
                    continue;
                }
                int workers = Scenarios.EIGHT.contains(q) ? Math.max(1, options.workers() / 8) : options.workers();
                env.put(queueKey(q, "MAX_WORKERS"), Integer.toString(workers));
            }
            if (queues.contains(Scenarios.BOUNDED)) {
                env.put(queueKey(Scenarios.BOUNDED, "MAX_PENDING"), Long.toString(options.maxPending()));
            }
        }
        System.out.println("== starting a " + mode + " server (" + String.join(",", queues) + ") on port "
                + port);
        long t0 = System.nanoTime();
        WeirServer server;
        try {
            server = WeirServer.start(name, options.java(), options.jar(), env, port, work.resolve(name),
                    Duration.ofSeconds(180));
        } catch (Exception e) {
            db.close();
            throw e;
        }
        long pid = server.serverPid();
        System.out.printf("  ready in %.1f s; server JVM pid %d; log %s%n", (System.nanoTime() - t0) / 1e9, pid,
                server.log());
        WeirApi api = new WeirApi(server.baseUrl(), password);
        Backlog backlog = new Backlog(api, db, new CpuUse(pid, pg.host()), options.analyze());
        return new Running(new Target(mode, server, api, db, backlog), server, db);
    }

    private static String queueKey(String queue, String key) {
        return "WEIR_QUEUE_" + queue.toUpperCase().replaceAll("[^A-Z0-9]", "_") + "_" + key;
    }

    private static void deleteTree(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
