package dev.weir.bench;

import dev.weir.config.QueueSettings;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;

/**
 * The scenarios of the benchmark, each a method that measures one thing on a running server and adds its figures to
 * the report. Throughput scenarios warm up with one round they do not count and report the median of the rounds
 * they do; where two setups are compared (one queue against eight, admission against none) their rounds alternate
 * on the same server, so that the machine's other load falls on both alike.
 */
final class Scenarios {

    /** The queue every single-queue scenario uses; its permits are {@code workers}. */
    static final String DEFAULT = "default";
    /** Kept paused: what is submitted to it stays there until the table is emptied. */
    static final String ENQUEUE = "enqueue";
    /** Like {@code default}, with an admission bound large enough never to refuse. */
    static final String BOUNDED = "bounded";
    /** A queue with no setting of its own in hard-reserved mode: every key at its default (max-workers 100). */
    static final String SHIPPED = "shipped";
    /** Eight queues sharing the load, {@code workers / 8} permits each in hard-reserved mode. */
    static final List<String> EIGHT = IntStream.rangeClosed(1, 8).mapToObj(i -> "q" + i).toList();

    private static final String NOOP = "{\"kind\":\"weir.noop\"}";

    private final Options options;
    private final Ceiling ceiling;
    private final Report report;
    /** The median drain of the weighted server with one queue. */
    private double weightedOneQueue = Double.NaN;
    private final JsonObjectBuilder weightedDetails = Json.createObjectBuilder();

    Scenarios(Options options, Ceiling ceiling, Report report) {
        this.options = options;
        this.ceiling = ceiling;
        this.report = report;
    }

    /** Every setting a server needs besides its mode's: the queues and the database. */
    static List<String> queues() {
        List<String> all = new ArrayList<>(List.of(DEFAULT, ENQUEUE, BOUNDED, SHIPPED));
        all.addAll(EIGHT);
        return all;
    }

    // ---- warm-up ----------------------------------------------------------------------------------------------

    /**
     * Drains each of {@code setups} in turn, unmeasured, until {@code warmUpSeconds} have passed: a fresh server's
     * JIT compiler keeps a core busy for tens of seconds, and a round measured meanwhile says more about the compiler
     * than about Weir (the first drain of a run came out at 0.63 × the k = 10 cell, the same drain half a minute later
     * at 1.0).
     */
    void warmUp(Target t, String server, List<List<String>> setups) throws Exception {
        if (options.warmUpSeconds() == 0) {
            return;
        }
        long start = System.nanoTime();
        long end = start + options.warmUpSeconds() * 1_000_000_000L;
        JsonArrayBuilder rates = Json.createArrayBuilder();
        long jobs = 0;
        while (System.nanoTime() - end < 0) {
            for (List<String> queues : setups) {
                Backlog.Drained d = t.backlog().drainFor(queues, options.jobs(), 30);
                jobs += d.jobs();
                rates.add(Report.json(d.rate()));
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        JsonArray drains = rates.build();
        log("warm-up of the %s server: %d drains, %d jobs in %.0f s; the rates in order: %s", server, drains.size(),
                jobs, seconds, drains);
        report.run().add("warmUp_" + server, Json.createObjectBuilder().add("seconds", Report.json(seconds))
                .add("jobs", jobs).add("drainRates", drains));
    }

    // ---- drain ------------------------------------------------------------------------------------------------

    /** A backlog of no-op jobs on one queue with {@code workers} permits, compared with the claim+complete cells. */
    void drain(Target t) throws Exception {
        List<Backlog.Drained> rounds = rounds(t, List.of(DEFAULT), options.jobs());
        double rate = median(rounds);
        String name = "drain, " + t.mode() + ", " + options.workers() + " workers, " + options.jobs() + " no-op";
        report.add(Figure.of("drain", name, rate, "jobs/s").against("claim+complete k=100", cell(Ceiling.CLAIM_100)));
        report.add(Figure.of("drain", name, rate, "jobs/s").against("claim+complete k=10", cell(Ceiling.CLAIM_10)));
        JsonObjectBuilder details = Json.createObjectBuilder()
                .add("mode", t.mode()).add("workers", options.workers()).add("jobs", options.jobs())
                .add("medianJobsPerSecond", Report.json(rate)).add("rounds", json(rounds))
                .add("ratioToClaim1", Report.json(rate / cell(Ceiling.CLAIM_1)));
        if (t.mode().equals("hard-reserved")) {
            // Issue 6's drain target is for the settings Weir ships with: a queue with no keys of its own. Its backlog
            // is SHIPPED_BACKLOG_FACTOR times --jobs, so that a round lasts seconds, and each round is set beside the
            // k = 100 cell run again right next to it.
            int shippedJobs = SHIPPED_BACKLOG_FACTOR * options.jobs();
            drainRound(t, List.of(SHIPPED), shippedJobs, 0, 0);
            List<Backlog.Drained> shipped = new ArrayList<>();
            List<Pair> pairs = beside("drain, default settings", Ceiling.CLAIM_100,
                    Math.min(PAIRED_DRAIN_CELL_SECONDS, options.ceilingSeconds()), r -> {
                        Backlog.Drained d = drainRound(t, List.of(SHIPPED), shippedJobs, r, 0);
                        shipped.add(d);
                        return d.rate();
                    });
            double shippedRate = median(shipped);
            report.add(Figure.of("drain", "drain, default settings (max-workers " + QueueSettings.DEFAULT_MAX_WORKERS
                    + "), " + shippedJobs + " no-op",
                    shippedRate, "jobs/s").against(besideLabel(Ceiling.CLAIM_100, pairs), medianCell(pairs))
                    .rounds(weirs(pairs), cells(pairs)).ratioAtLeast(0.8));
            details.add("defaultSettings", Json.createObjectBuilder().add("jobs", shippedJobs)
                    .add("medianJobsPerSecond", Report.json(shippedRate)).add("rounds", json(shipped))
                    .add("besideCell", pairsJson(pairs)));
        }
        report.details("drain", details.build());
    }

    /**
     * The default-settings drain's backlog, in multiples of {@code --jobs}: with 20,000 jobs a round lasted half a
     * second on a machine of fast commits, and the rounds of one run lay between 0.63 and 0.86 of the cell beside them
     * (bench/RESULTS.md). Ten times as many last some seconds, as the cell's 10 s do.
     */
    static final int SHIPPED_BACKLOG_FACTOR = 10;

    // ---- history --------------------------------------------------------------------------------------------------

    /** Completed jobs the history scenario keeps in the table: about where the claim's estimate passes JIT's. */
    static final int HISTORY = 1_000_000;
    /**
     * The history scenario's backlog, whatever {@code --jobs} says: the claim's estimate grows with the backlog too,
     * and with 20,000 jobs over this history it stayed below JIT's threshold (ADR 0033).
     */
    static final int HISTORY_BACKLOG = 50_000;

    /**
     * The default-settings drain over a table that keeps {@link #HISTORY} completed jobs and has just been analysed
     * (ADR 0033), against the same drain over an empty table, in alternate rounds on the same server. Kept history
     * must not slow the claim down: with PostgreSQL's JIT compiler on, it made the drain twenty times slower.
     */
    void history(Target t) throws Exception {
        List<Backlog.Drained> kept = new ArrayList<>();
        List<Backlog.Drained> none = new ArrayList<>();
        for (int r = 0; r <= options.rounds(); r++) {
            Backlog.Drained a = t.backlog().drain(List.of(SHIPPED), HISTORY_BACKLOG);
            Backlog.Drained b = t.backlog().drainOverHistory(SHIPPED, HISTORY_BACKLOG, HISTORY);
            log("history round %d: empty table %.0f jobs/s, %d completed jobs kept %.0f jobs/s%s", r, a.rate(),
                    HISTORY, b.rate(), r == 0 ? " (warm-up)" : "");
            if (r > 0) {
                none.add(a);
                kept.add(b);
            }
        }
        double rate = median(kept);
        report.add(Figure.of("history", "drain, default settings, " + HISTORY_BACKLOG + " no-op over " + HISTORY
                + " completed jobs kept (analysed)",
                rate, "jobs/s").against("the same over an empty table, alternating", median(none))
                .rounds(rates(kept), rates(none)).ratioAtLeast(0.8));
        report.details("history", Json.createObjectBuilder().add("history", HISTORY).add("jobs", HISTORY_BACKLOG)
                .add("kept", json(kept)).add("emptyTable", json(none)).build());
    }

    // ---- weighted -------------------------------------------------------------------------------------------------

    /**
     * On a weighted server ({@code global-max-workers = workers}) that serves one queue only: the cost of the mode
     * itself, against a hard-reserved server with the same queue and workers running beside it. The two drain in
     * alternate rounds (never at once), so that both meet the same machine.
     */
    void weightedOneQueue(Target weighted, Target hard) throws Exception {
        List<Backlog.Drained> w = new ArrayList<>();
        List<Backlog.Drained> h = new ArrayList<>();
        for (int r = 0; r <= options.rounds(); r++) {
            Backlog.Drained a = hard.backlog().drain(List.of(DEFAULT), options.jobs());
            Backlog.Drained b = weighted.backlog().drain(List.of(DEFAULT), options.jobs());
            log("weighted round %d: hard-reserved %.0f jobs/s (%s), weighted %.0f jobs/s (%.1f jobs per claim; %s)%s",
                    r, a.rate(), cpu(a), b.rate(), b.jobsPerClaim(), cpu(b), r == 0 ? " (warm-up)" : "");
            if (r > 0) {
                h.add(a);
                w.add(b);
            }
        }
        weightedOneQueue = median(w);
        report.add(Figure.of("weighted", "drain, weighted (global " + options.workers() + "), the only queue",
                weightedOneQueue, "jobs/s").against("hard-reserved beside it, alternating", median(h))
                .rounds(rates(w), rates(h)).ratioAtLeast(0.95));
        report.add(Figure.of("weighted", "drain, weighted, the only queue", weightedOneQueue, "jobs/s")
                .against("claim+complete k=100", cell(Ceiling.CLAIM_100)));
        weightedDetails.add("onlyQueue", json(w)).add("hardReservedBeside", json(h));
    }

    /**
     * On a weighted server with the same twelve queues as the hard-reserved one: eight queues sharing the pool in
     * rounds alternating with one busy queue while the eleven others are idle, as the hard-reserved many-queues
     * scenario alternates its two setups on one server. The eight queues are compared with the busy queue of the same
     * server (issue 6's many-queues target), and both with the weighted server that has one queue only.
     */
    void weightedManyQueues(Target t) throws Exception {
        // Rounds cut after 30 s: with idle queues configured, weighted drains can be slow enough that whole backlogs
        // would take many minutes.
        List<Backlog.Drained> one = new ArrayList<>();
        List<Backlog.Drained> eight = new ArrayList<>();
        for (int r = 0; r <= options.rounds(); r++) {
            Backlog.Drained a = t.backlog().drainFor(List.of(DEFAULT), options.jobs(), 30);
            Backlog.Drained b = t.backlog().drainFor(EIGHT, options.jobs(), 30);
            log("weighted many queues round %d: one busy queue %.0f jobs/s (%s), eight queues %.0f jobs/s (%s)%s", r,
                    a.rate(), cpu(a), b.rate(), cpu(b), r == 0 ? " (warm-up)" : "");
            if (r > 0) {
                one.add(a);
                eight.add(b);
            }
        }
        String busy = "weighted, 1 busy queue, " + (queues().size() - 1) + " idle";
        report.add(Figure.of("weighted", "drain, weighted, 8 queues sharing the pool (rounds of at most 30 s)",
                median(eight), "jobs/s")
                .against(busy + ", same server, alternating", median(one)).rounds(rates(eight), rates(one))
                .ratioAtLeast(0.8));
        report.add(Figure.of("weighted", "drain, weighted, 8 queues sharing the pool (rounds of at most 30 s)",
                median(eight), "jobs/s").against("weighted, the only queue", weightedOneQueue));
        report.add(Figure.of("weighted", "drain, " + busy + " queues configured (rounds of at most 30 s)",
                median(one), "jobs/s").against("weighted, the only queue", weightedOneQueue));
        weightedDetails.add("eightQueues", json(eight)).add("oneBusyAmongIdle", json(one));
        report.details("weighted", weightedDetails.build());
    }

    // ---- many queues ----------------------------------------------------------------------------------------------

    /** Eight queues with {@code workers / 8} permits each against one queue with {@code workers}, alternating. */
    void manyQueues(Target t) throws Exception {
        String scenario = "queues";
        List<Backlog.Drained> one = new ArrayList<>();
        List<Backlog.Drained> eight = new ArrayList<>();
        for (int r = 0; r <= options.rounds(); r++) {
            Backlog.Drained a = t.backlog().drain(List.of(DEFAULT), options.jobs());
            Backlog.Drained b = t.backlog().drain(EIGHT, options.jobs());
            log("%s round %d: one queue %.0f jobs/s (%s), eight queues %.0f jobs/s (%s)%s", scenario, r,
                    a.rate(), cpu(a), b.rate(), cpu(b), r == 0 ? " (warm-up)" : "");
            if (r > 0) {
                one.add(a);
                eight.add(b);
            }
        }
        report.add(Figure.of(scenario, "drain, hard-reserved, 8 queues of " + Math.max(1, options.workers() / 8)
                + " workers", median(eight), "jobs/s")
                .against("1 queue of " + options.workers(), median(one)).rounds(rates(eight), rates(one))
                .ratioAtLeast(0.8));
        report.details(scenario, Json.createObjectBuilder()
                .add("oneQueue", json(one)).add("eightQueues", json(eight)).build());
    }

    // ---- pickup latency -------------------------------------------------------------------------------------------

    /**
     * Jobs submitted one at a time, 10–50 ms apart, to an idle server: from the submitting transaction's start
     * ({@code created_at}) to the claim transaction's start ({@code attempted_at}), both PostgreSQL's clock.
     */
    void latency(Target t) throws Exception {
        t.backlog().reset();
        t.api().resume(DEFAULT);
        int warmUp = 20;
        Histogram submit = new Histogram(3);
        Map<Long, Long> roundTripMicros = new HashMap<>(); // by job id
        for (int i = -warmUp; i < options.samples(); i++) {
            long start = System.nanoTime();
            long id = t.api().submit(NOOP);
            if (i >= 0) {
                long micros = (System.nanoTime() - start) / 1000;
                submit.recordValue(micros);
                roundTripMicros.put(id, micros);
            }
            Thread.sleep(ThreadLocalRandom.current().nextInt(10, 51));
        }
        t.backlog().awaitNoneOutstanding(List.of(DEFAULT), 60_000);
        Histogram pickup = new Histogram(3);
        List<SlowPickup> slowest = new ArrayList<>();
        for (List<Number> row : t.db().rows("SELECT id, round(extract(epoch FROM attempted_at - created_at) * 1e6)"
                + " FROM weir.jobs WHERE id = ANY (?)", (Object) roundTripMicros.keySet().toArray(Long[]::new))) {
            long micros = Math.max(0, row.get(1).longValue());
            pickup.recordValue(micros);
            slowest.add(new SlowPickup(micros, roundTripMicros.get(row.get(0).longValue())));
        }
        if (pickup.getTotalCount() != options.samples()) {
            throw new IllegalStateException("found " + pickup.getTotalCount() + " of " + options.samples() + " jobs");
        }
        // The slowest pickups beside their own submissions' round trips: a pickup counts from the submitting
        // transaction's start, so a submission that was slow to commit (a stalled WAL flush) shows in both, while a
        // slow wake-up or claim shows in the pickup alone.
        slowest.sort(Comparator.comparingLong(SlowPickup::pickupMicros).reversed());
        slowest = slowest.subList(0, Math.min(3, slowest.size()));
        System.out.println("  slowest pickups, each with its submission's round trip: " + slowest.stream()
                .map(p -> String.format(Locale.ROOT, "%.1f ms (submitted in %.1f ms)", p.pickupMicros() / 1000.0,
                        p.roundTripMicros() / 1000.0))
                .collect(Collectors.joining(", ")));
        String name = "pickup, idle server, " + options.samples() + " jobs";
        report.add(Figure.of("latency", name + ": p50", ms(pickup, 50), "ms").atMost(5));
        report.add(Figure.of("latency", name + ": p95", ms(pickup, 95), "ms"));
        report.add(Figure.of("latency", name + ": p99", ms(pickup, 99), "ms").atMost(25));
        report.add(Figure.of("latency", name + ": max", pickup.getMaxValue() / 1000.0, "ms"));
        JsonArrayBuilder slowestJson = Json.createArrayBuilder();
        for (SlowPickup p : slowest) {
            slowestJson.add(Json.createObjectBuilder().add("pickupMs", p.pickupMicros() / 1000.0)
                    .add("submitRoundTripMs", p.roundTripMicros() / 1000.0));
        }
        report.details("latency", Json.createObjectBuilder()
                .add("samples", options.samples())
                .add("pickupMs", percentiles(pickup))
                .add("submitRoundTripMs", percentiles(submit))
                .add("slowestPickups", slowestJson)
                .build());
    }

    /** One pickup latency and the round trip of the submission that made its job, both in microseconds. */
    private record SlowPickup(long pickupMicros, long roundTripMicros) {
    }

    // ---- enqueue --------------------------------------------------------------------------------------------------

    /**
     * What one enqueue run did: rows per second from their {@code created_at}, acknowledged jobs per second, and the
     * CPU milliseconds the server's JVM and PostgreSQL used per 1000 acknowledged jobs while the load ran
     * ({@link CpuUse}; NaN where unknown).
     */
    record Enqueued(long rows, double serverRate, double clientRate, long errors, double serverCpuPer1000,
            double databaseCpuPer1000) {

        jakarta.json.JsonObject json() {
            return Json.createObjectBuilder().add("rows", rows).add("serverJobsPerSecond", Report.json(serverRate))
                    .add("clientJobsPerSecond", Report.json(clientRate)).add("errors", errors)
                    .add("serverCpuMsPer1000Jobs", Report.json(serverCpuPer1000))
                    .add("databaseCpuMsPer1000Jobs", Report.json(databaseCpuPer1000)).build();
        }
    }

    /**
     * 16 concurrent clients submitting single jobs, batches of 100 and batches of 1000, to a paused queue; then 16
     * threads of the server doing the same through {@code JobSubmitter}, singly and 100 at a time.
     */
    void enqueue(Target t) throws Exception {
        JsonObjectBuilder details = Json.createObjectBuilder();
        // The drains of the server's warm-up submit in batches; single submissions over HTTP take their own path
        // through the server, which on 2 cores needed about 50 s of load before the JIT had compiled it (ADR 0028).
        // Unmeasured; measure() empties the queue before it counts.
        t.api().pause(ENQUEUE);
        warmHttp(t, "single submissions", "/api/jobs", job(ENQUEUE), 201);
        // Each figure with a ceiling target is measured in rounds, each beside its cell run again (ADR 0015): the
        // enqueue cells moved by half from one run to the next here, within minutes.
        List<Pair> single = enqueueBeside(t, details, "single", "single POST /api/jobs, 16 clients",
                Ceiling.ENQUEUE_1, () -> enqueue(t, ENQUEUE, 1));
        // What the server's HTTP path does with no Weir code behind it: the same 16 clients calling an open probe.
        double bare = requestRate(t, "/health/live", options.enqueueSeconds());
        report.add(Figure.of("enqueue", "GET /health/live, 16 clients (the HTTP path alone, for reference)", bare,
                "calls/s").against(besideLabel(Ceiling.ENQUEUE_1, single), medianCell(single)));
        details.add("healthLiveRequestsPerSecond", Report.json(bare));
        // The same with a login and a JAX-RS resource but no database: what every authenticated call costs before
        // Weir's own work, so the bound it puts on single submissions over HTTP is in the table too.
        double me = requestRate(t, "/api/me", options.enqueueSeconds());
        report.add(Figure.of("enqueue", "GET /api/me, 16 clients (an authenticated call, no database, for reference)",
                me, "calls/s").against(besideLabel(Ceiling.ENQUEUE_1, single), medianCell(single)));
        details.add("apiMeRequestsPerSecond", Report.json(me));
        // Batches from 16 clients at once take a path of their own too (concurrent batches share group commits, ADR
        // 0030): by hand, 8 s rounds of batches of 100 on a fresh server ran at 81k, 115k, then 140–154k jobs/s.
        String hundred = "[" + String.join(",", Collections.nCopies(100, job(ENQUEUE))) + "]";
        warmHttp(t, "batches of 100", "/api/jobs/batch", hundred, 201);
        for (int size : new int[] {100, 1000}) {
            enqueueBeside(t, details, "batch" + size, "batch of " + size + ", 16 clients", Ceiling.ENQUEUE_100,
                    () -> enqueue(t, ENQUEUE, size));
        }
        enqueueBeside(t, details, "inProcessSingle", "JobSubmitter.submit in the server, 16 threads",
                Ceiling.ENQUEUE_1, () -> inProcess(t, ENQUEUE, 1));
        enqueueBeside(t, details, "inProcessBatch100", "JobSubmitter.submitAll of 100 in the server, 16 threads",
                Ceiling.ENQUEUE_100, () -> inProcess(t, ENQUEUE, 100));
        report.details("enqueue", details.build());
    }

    /** One way of submitting, measured once ({@link #enqueue(Target, String, int)}, {@link #inProcess}). */
    @FunctionalInterface
    private interface Submitting {
        Enqueued run() throws Exception;
    }

    /**
     * An enqueue figure in rounds beside its ceiling cell ({@link #beside}): the median of the rounds' server-side
     * rates against the median of the cell's runs, with the target of 0.8; every round in the details.
     */
    private List<Pair> enqueueBeside(Target t, JsonObjectBuilder details, String key, String name, String cell,
            Submitting submitting) throws Exception {
        List<Enqueued> runs = new ArrayList<>();
        List<Pair> pairs = beside(name, cell, options.enqueueSeconds(), r -> {
            Enqueued e = submitting.run();
            runs.add(e);
            return e.serverRate();
        });
        report.add(Figure.of("enqueue", name, medianRate(runs), "jobs/s")
                .against(besideLabel(cell, pairs), medianCell(pairs)).rounds(weirs(pairs), cells(pairs))
                .ratioAtLeast(0.8));
        JsonArrayBuilder rounds = Json.createArrayBuilder();
        runs.forEach(e -> rounds.add(e.json()));
        details.add(key, Json.createObjectBuilder().add("rounds", rounds).add("besideCell", pairsJson(pairs)));
        return pairs;
    }

    /** One way of submitting for some seconds; answers the jobs acknowledged and counts failed calls. */
    @FunctionalInterface
    private interface Load {
        long run(int seconds, AtomicLong errors) throws Exception;
    }

    /** {@code clients} HTTP clients submitting {@code batch} jobs a request ({@link #measure}). */
    Enqueued enqueue(Target t, String queue, int batch) throws Exception {
        String one = job(queue);
        String body = batch == 1 ? one : "[" + String.join(",", Collections.nCopies(batch, one)) + "]";
        return measure(t, queue, "HTTP, batch " + batch, (seconds, errors) -> {
            JsonObject before = t.api().groupCommits();
            long jobs = load(t, batch, body, seconds, errors);
            JsonObject after = t.api().groupCommits();
            if (before != null && after != null) {
                log("  HTTP, batch %d: %d calls shared %d commits", batch,
                        after.getJsonNumber("requests").longValue() - before.getJsonNumber("requests").longValue(),
                        after.getJsonNumber("groups").longValue() - before.getJsonNumber("groups").longValue());
            }
            return jobs;
        });
    }

    /** 16 threads of the server submitting {@code batch} jobs a transaction through {@code JobSubmitter}. */
    Enqueued inProcess(Target t, String queue, int batch) throws Exception {
        return measure(t, queue, "in-process, batch " + batch, (seconds, errors) -> {
            JsonObject r = t.api().submitLoad(job(queue), 16, batch, seconds);
            errors.addAndGet(r.getJsonNumber("errors").longValue());
            if (r.containsKey("groupCommits")) {
                log("  in-process, batch %d: %d calls shared %d commits", batch, r.getJsonNumber("calls").longValue(),
                        r.getJsonNumber("groupCommits").longValue());
            }
            if (r.containsKey("firstError")) {
                log("  in-process submissions failed %d times, the first: %s", r.getJsonNumber("errors").longValue(),
                        r.getString("firstError"));
            }
            return r.getJsonNumber("jobs").longValue();
        });
    }

    private static String job(String queue) {
        return "{\"kind\":\"weir.noop\",\"queue\":\"" + queue + "\"}";
    }

    /**
     * Submits for {@code enqueueSeconds} (after a warm-up of at most 2 s that is not counted) to {@code queue}, which
     * is paused so that no worker competes. The server-side rate counts the rows whose transaction started before
     * the last one did, over the time between the first and the last start.
     */
    private Enqueued measure(Target t, String queue, String what, Load load) throws Exception {
        t.api().pause(queue);
        load.run(Math.min(2, options.enqueueSeconds()), new AtomicLong());
        t.backlog().reset();
        AtomicLong errors = new AtomicLong();
        CpuUse.Reading cpuBefore = t.backlog().cpu().read();
        long start = System.nanoTime();
        long acknowledged = load.run(options.enqueueSeconds(), errors);
        double clientSeconds = (System.nanoTime() - start) / 1e9;
        CpuUse.Reading cpuAfter = t.backlog().cpu().read();
        double span = t.db().row(
                "SELECT extract(epoch FROM max(created_at) - min(created_at)) FROM weir.jobs WHERE queue = ?", queue)
                .get(0).doubleValue();
        long rows = t.db().count("""
                SELECT count(*) FROM weir.jobs
                WHERE queue = ? AND created_at < (SELECT max(created_at) FROM weir.jobs WHERE queue = ?)""",
                queue, queue);
        t.backlog().reset();
        Enqueued e = new Enqueued(rows, rows / span, acknowledged / clientSeconds, errors.get(),
                CpuUse.msPer1000(CpuUse.seconds(cpuBefore.serverNanos(), cpuAfter.serverNanos()), acknowledged),
                CpuUse.msPer1000(CpuUse.seconds(cpuBefore.databaseNanos(), cpuAfter.databaseNanos()), acknowledged));
        log("enqueue %s, %s: %.0f jobs/s server-side, %.0f acknowledged per second, %d errors (%s)", queue, what,
                e.serverRate(), e.clientRate(), e.errors(), cpu(e.serverCpuPer1000(), e.databaseCpuPer1000()));
        return e;
    }

    private long load(Target t, int batch, String body, int seconds, AtomicLong errors) throws Exception {
        return batch * httpLoad(t, batch == 1 ? "/api/jobs" : "/api/jobs/batch", body, 201, seconds, errors);
    }

    /**
     * 16 clients sending one request in rounds of a few seconds, unmeasured, until three rounds in a row lie within a
     * tenth of their largest ({@link Steadiness}) or twice {@code warmUpSeconds} (at most 120 s) have passed: each
     * HTTP path has its own code for the JIT to compile, and a fixed warm-up either wastes time or stops while it
     * still rises (ADR 0015, amendment of 2026-12-02). The rounds' rates go into the run's details as
     * {@code warmUp_http_<what>}.
     */
    private void warmHttp(Target t, String what, String path, String body, int expected) throws Exception {
        int round = Math.max(2, Math.min(6, options.warmUpSeconds() / 10));
        int most = Math.max(2 * round, Math.min(120, 2 * options.warmUpSeconds()));
        Steadiness steadiness = new Steadiness(3, 0.1);
        long start = System.nanoTime();
        do {
            long roundStart = System.nanoTime();
            long calls = httpLoad(t, path, body, expected, round, new AtomicLong());
            steadiness.add(calls / ((System.nanoTime() - roundStart) / 1e9));
        } while (!steadiness.steady() && (System.nanoTime() - start) / 1e9 + round <= most);
        double seconds = (System.nanoTime() - start) / 1e9;
        JsonArrayBuilder rates = Json.createArrayBuilder();
        steadiness.rates().forEach(r -> rates.add(Report.json(r)));
        JsonArray json = rates.build();
        log("warm-up of %s over HTTP: %.0f s, %s; calls/s per %d s round: %s", what, seconds,
                steadiness.steady() ? "steady" : "not steady yet", round, json);
        report.run().add("warmUp_http_" + what.replaceAll("[^A-Za-z0-9]+", "_"), Json.createObjectBuilder()
                .add("seconds", Report.json(seconds)).add("steady", steadiness.steady()).add("callRates", json));
    }

    /**
     * 16 clients, each with a {@link LoadClient} of its own, sending the same request (a {@code POST} of
     * {@code body}, or a {@code GET} when it is null) for {@code seconds}; answers the calls that got
     * {@code expected}. After more than 100 failed calls the load gives up with the last failure.
     */
    private long httpLoad(Target t, String path, String body, int expected, int seconds, AtomicLong errors)
            throws Exception {
        int clients = 16;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<Long>> done = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                done.add(pool.submit(() -> {
                    long calls = 0;
                    LoadClient client = t.api().loadClient(path, body);
                    try {
                        while (System.nanoTime() < end) {
                            try {
                                client.call(expected);
                                calls++;
                            } catch (IOException e) {
                                if (errors.incrementAndGet() > 100) {
                                    throw e;
                                }
                                client.close();
                                client = t.api().loadClient(path, body);
                            }
                        }
                    } finally {
                        client.close();
                    }
                    return calls;
                }));
            }
            long total = 0;
            for (Future<Long> f : done) {
                total += f.get();
            }
            return total;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Calls per second of 16 clients calling {@code GET path} for {@code seconds}, once warm ({@link #warmHttp}). */
    private double requestRate(Target t, String path, int seconds) throws Exception {
        warmHttp(t, "GET " + path, path, null, 200);
        long start = System.nanoTime();
        long calls = httpLoad(t, path, null, 200, seconds, new AtomicLong());
        double rate = calls / ((System.nanoTime() - start) / 1e9);
        log("GET %s, 16 clients: %.0f calls/s", path, rate);
        return rate;
    }

    // ---- admission ------------------------------------------------------------------------------------------------

    /**
     * A queue with {@code max-pending} far above anything submitted against the same queue without: drains and
     * single submits, alternating. Skipped when the server does not enforce admission (its queue view says
     * {@code "admission": null}).
     */
    void admission(Target t) throws Exception {
        if (t.api().queue(BOUNDED).isNull("admission")) {
            report.skipped("admission", "the server reports no admission bound for a queue configured with"
                    + " weir.queue." + BOUNDED + ".max-pending (\"admission\": null): it does not enforce it");
            log("admission: skipped, the server does not know max-pending");
            return;
        }
        List<Backlog.Drained> none = new ArrayList<>();
        List<Backlog.Drained> bounded = new ArrayList<>();
        for (int r = 0; r <= options.rounds(); r++) {
            Backlog.Drained a = t.backlog().drain(List.of(DEFAULT), options.jobs());
            Backlog.Drained b = t.backlog().drain(List.of(BOUNDED), options.jobs());
            log("admission round %d: none %.0f jobs/s, bounded %.0f jobs/s%s", r, a.rate(), b.rate(),
                    r == 0 ? " (warm-up)" : "");
            if (r > 0) {
                none.add(a);
                bounded.add(b);
            }
        }
        report.add(Figure.of("admission", "drain, max-pending " + options.maxPending(), median(bounded), "jobs/s")
                .against("drain, no bound", median(none)).rounds(rates(bounded), rates(none)).ratioAtLeast(0.8));
        // Single submissions over HTTP swing by a factor of two or more from one minute to the next on a small
        // machine (471 and 1,899 jobs/s for the same setup in two runs), so they alternate too, a round of each.
        Singles http = alternateSingles(t, "HTTP", (target, queue) -> enqueue(target, queue, 1));
        report.add(Figure.of("admission", "single POST /api/jobs, 16 clients, max-pending", medianRate(http.bounded()),
                "jobs/s").against("single, no bound, alternating", medianRate(http.none()))
                .rounds(serverRates(http.bounded()), serverRates(http.none())).ratioAtLeast(0.8));
        // The same from the server's own threads: no HTTP in front, so admission's own cost shows.
        Singles local = alternateSingles(t, "in-process", (target, queue) -> inProcess(target, queue, 1));
        report.add(Figure.of("admission", "single in-process JobSubmitter, 16 threads, max-pending",
                medianRate(local.bounded()), "jobs/s")
                .against("in-process single, no bound, alternating", medianRate(local.none()))
                .rounds(serverRates(local.bounded()), serverRates(local.none())).ratioAtLeast(0.8));
        report.details("admission", Json.createObjectBuilder()
                .add("maxPending", options.maxPending())
                .add("drainNone", json(none)).add("drainBounded", json(bounded))
                .add("singleNone", jsonEnqueued(http.none())).add("singleBounded", jsonEnqueued(http.bounded()))
                .add("singleInProcessNone", jsonEnqueued(local.none()))
                .add("singleInProcessBounded", jsonEnqueued(local.bounded())).build());
    }

    /** Submits single jobs to a queue, one way or another. */
    private interface SingleSubmits {
        Enqueued to(Target t, String queue) throws Exception;
    }

    /** The measured rounds of single submissions to the unbounded queue and to the bounded one. */
    private record Singles(List<Enqueued> none, List<Enqueued> bounded) {
    }

    /** Single submissions to {@code enqueue} and to {@code bounded}, alternating, after a warm-up round of each. */
    private Singles alternateSingles(Target t, String how, SingleSubmits submit) throws Exception {
        Singles singles = new Singles(new ArrayList<>(), new ArrayList<>());
        for (int r = 0; r <= options.rounds(); r++) {
            Enqueued a = submit.to(t, ENQUEUE);
            Enqueued b = submit.to(t, BOUNDED);
            log("admission %s single submits round %d: none %.0f jobs/s, bounded %.0f jobs/s%s", how, r,
                    a.serverRate(), b.serverRate(), r == 0 ? " (warm-up)" : "");
            if (b.errors() > 0) {
                // Refused calls cost a look at every slot: such a round measures a full queue, not admission.
                log("  WARNING: %d calls to %s failed in this round (refused when it reached max-pending %d?): "
                        + "raise --jobs, whose fourfold sets the bound, or shorten --enqueue-seconds", b.errors(),
                        BOUNDED, options.maxPending());
            }
            if (r > 0) {
                singles.none().add(a);
                singles.bounded().add(b);
            }
        }
        return singles;
    }

    private static JsonArrayBuilder jsonEnqueued(List<Enqueued> rounds) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        rounds.forEach(e -> array.add(e.json()));
        return array;
    }

    // ---- cost -----------------------------------------------------------------------------------------------------

    /** Counters read from the {@code postgres} database, so that reading them adds nothing to the bench database. */
    private record Counters(double walLsn, double walBytes, double walRecords, double walFpi, double commits,
            double otherCommits, double nextXid) {

        static Counters read(BenchDb stats, String database) throws Exception {
            List<Number> r = stats.row("""
                    SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0'),
                           (SELECT wal_bytes FROM pg_stat_wal),
                           (SELECT wal_records FROM pg_stat_wal),
                           (SELECT wal_fpi FROM pg_stat_wal),
                           (SELECT xact_commit FROM pg_stat_database WHERE datname = ?),
                           (SELECT sum(xact_commit) FROM pg_stat_database WHERE datname <> ?),
                           pg_snapshot_xmax(pg_current_snapshot())::text::bigint""", database, database);
            return new Counters(d(r, 0), d(r, 1), d(r, 2), d(r, 3), d(r, 4), d(r, 5), d(r, 6));
        }

        private static double d(List<Number> r, int i) {
            return r.get(i).doubleValue();
        }
    }

    /**
     * WAL and commits around one drain of {@code jobs} no-op jobs: while they are submitted (queue paused) and while
     * they are drained. Server-wide counters, so anything else writing to the same PostgreSQL at the time is counted
     * too; commits in other databases during each phase are reported beside them as a warning sign. PostgreSQL
     * publishes a session's statistics up to 10 s after its last transaction, so each phase ends with an 11 s wait.
     */
    void cost(Target t, BenchDb stats) throws Exception {
        String db = options.database();
        long[] harness = new long[3];
        Counters[] c = new Counters[3];
        t.backlog().reset();
        Thread.sleep(11_000);
        harness[0] = t.db().statements();
        c[0] = Counters.read(stats, db);
        Backlog.Drained drained = t.backlog().drain(List.of(DEFAULT), options.jobs(), NOOP, () -> {
            Thread.sleep(11_000);
            harness[1] = t.db().statements();
            c[1] = Counters.read(stats, db);
        }, 0);
        harness[2] = t.db().statements();
        Thread.sleep(11_000);
        c[2] = Counters.read(stats, db);
        double jobs = drained.jobs();
        JsonObjectBuilder details = Json.createObjectBuilder().add("jobs", drained.jobs());
        String[] phases = {"submit", "drain"};
        for (int p = 0; p < 2; p++) {
            Counters a = c[p];
            Counters b = c[p + 1];
            double commits = b.commits() - a.commits() - (harness[p + 1] - harness[p]);
            details.add(phases[p], Json.createObjectBuilder()
                    .add("walBytesPerJob", (b.walLsn() - a.walLsn()) / jobs)
                    .add("pgStatWalBytesPerJob", (b.walBytes() - a.walBytes()) / jobs)
                    .add("walRecordsPerJob", (b.walRecords() - a.walRecords()) / jobs)
                    .add("fullPageImages", b.walFpi() - a.walFpi())
                    .add("commitsPerJob", commits / jobs)
                    .add("xidsPerJob", (b.nextXid() - a.nextXid()) / jobs)
                    .add("harnessStatements", harness[p + 1] - harness[p])
                    .add("commitsInOtherDatabases", b.otherCommits() - a.otherCommits()));
            report.add(Figure.of("cost", phases[p] + ": WAL per job", (b.walLsn() - a.walLsn()) / jobs, "B/job"));
            report.add(Figure.of("cost", phases[p] + ": commits per job", commits / jobs, "commits/job"));
            if (b.otherCommits() - a.otherCommits() > 50) {
                log("cost, %s: %.0f commits in other databases meanwhile: the WAL figure includes their writes",
                        phases[p], b.otherCommits() - a.otherCommits());
            }
        }
        report.details("cost", details.add("drained", drained.json()).build());
    }

    // ---- heap -----------------------------------------------------------------------------------------------------

    /** The server JVM's heap after a full GC, before and after a backlog of {@code heapJobs} jobs drains. */
    void heap(Target t) throws Exception {
        long pid = t.server().serverPid();
        double[] before = heapAfterGc(pid);
        Backlog.Drained drained = t.backlog().drain(List.of(DEFAULT), options.heapJobs());
        double[] after = heapAfterGc(pid);
        report.add(Figure.of("heap", "used after full GC, before the backlog", before[1], "MB"));
        report.add(Figure.of("heap", "used after full GC, " + options.heapJobs() + " jobs drained", after[1], "MB")
                .against("before the backlog", before[1]));
        report.add(Figure.of("heap", "drain of the " + options.heapJobs() + "-job backlog", drained.rate(), "jobs/s")
                .against("claim+complete k=100", cell(Ceiling.CLAIM_100)));
        report.details("heap", Json.createObjectBuilder()
                .add("pid", pid)
                .add("before", Json.createObjectBuilder().add("committedMb", before[0]).add("usedMb", before[1]))
                .add("after", Json.createObjectBuilder().add("committedMb", after[0]).add("usedMb", after[1]))
                .add("drain", drained.json()).build());
    }

    /** {committed, used} in MB, read with {@code jcmd} right after it asked for a full GC. */
    private double[] heapAfterGc(long pid) throws Exception {
        jcmd(pid, "GC.run");
        return HeapInfo.committedAndUsedMb(jcmd(pid, "GC.heap_info"));
    }

    private String jcmd(long pid, String command) throws Exception {
        Path jcmd = Path.of(options.java()).resolveSibling("jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("jcmd " + pid + " " + command + " failed:\n" + out);
        }
        return out;
    }

    // ---- shared -----------------------------------------------------------------------------------------------------

    /** One warm-up drain, then {@code rounds} measured ones. */
    private List<Backlog.Drained> rounds(Target t, List<String> queues, int jobs) throws Exception {
        return rounds(t, queues, jobs, 0);
    }

    /** The same, each round cut after {@code capSeconds} unless 0 ({@link Backlog#drainFor}). */
    private List<Backlog.Drained> rounds(Target t, List<String> queues, int jobs, int capSeconds) throws Exception {
        List<Backlog.Drained> measured = new ArrayList<>();
        for (int r = 0; r <= options.rounds(); r++) {
            Backlog.Drained d = drainRound(t, queues, jobs, r, capSeconds);
            if (r > 0) {
                measured.add(d);
            }
        }
        return measured;
    }

    /** Round {@code r} of a drain (0: the warm-up), logged. */
    private Backlog.Drained drainRound(Target t, List<String> queues, int jobs, int r, int capSeconds)
            throws Exception {
        Backlog.Drained d = t.backlog().drainFor(queues, jobs, capSeconds);
        log("drain %s %s round %d: %d jobs in %.2f s = %.0f jobs/s, %.1f jobs per claiming transaction, %.1f per"
                + " outcome batch%s",
                t.mode(), queues, r, d.jobs(), d.seconds(), d.rate(), d.jobsPerClaim(), d.jobsPerOutcomeBatch(),
                r == 0 ? " (warm-up)" : "");
        return d;
    }

    // ---- figures beside their ceiling cell ------------------------------------------------------------------------

    /** How long the k = 100 cell runs beside each default-settings drain round (the round itself lasts about 1 s). */
    static final int PAIRED_DRAIN_CELL_SECONDS = 10;

    /** One round of a figure and the ceiling cell it is compared with, run again right beside it; NaN: no ceiling. */
    record Pair(double weir, double cell) {

        JsonObject json() {
            return Json.createObjectBuilder().add("jobsPerSecond", Report.json(weir))
                    .add("cellJobsPerSecond", Report.json(cell)).add("ratio", Report.json(weir / cell)).build();
        }
    }

    /** One measured round, numbered from 1; answers its rate. */
    @FunctionalInterface
    private interface Round {
        double rate(int round) throws Exception;
    }

    /**
     * {@code rounds} rounds of a figure, each beside the ceiling cell {@code cell} run again for {@code cellSeconds}
     * ({@link Ceiling#again}): the figure first in odd rounds and the cell first in even ones, so that neither always
     * runs in the other's wake. On a machine whose speed drifts within minutes, the cell measured at the start of the
     * run can be a third away from the cell a few minutes later (ADR 0015). Without a ceiling, the rounds alone.
     */
    private List<Pair> beside(String what, String cell, int cellSeconds, Round round) throws Exception {
        List<Pair> pairs = new ArrayList<>();
        for (int r = 1; r <= options.rounds(); r++) {
            double weir;
            double again;
            if (r % 2 == 1) {
                weir = round.rate(r);
                again = again(cell, cellSeconds);
            } else {
                again = again(cell, cellSeconds);
                weir = round.rate(r);
            }
            if (Double.isNaN(again)) {
                log("%s, round %d: %.0f jobs/s (no ceiling to run beside it)", what, r, weir);
            } else {
                log("%s, round %d: %.0f jobs/s; %s run again beside it: %.0f jobs/s; ratio %.2f", what, r, weir, cell,
                        again, weir / again);
            }
            pairs.add(new Pair(weir, again));
        }
        return pairs;
    }

    private double again(String cell, int seconds) throws Exception {
        OptionalDouble v = ceiling.again(cell, options.ceilingClients(), seconds);
        return v.isPresent() ? v.getAsDouble() : Double.NaN;
    }

    /** The median of the cell's runs beside the rounds. */
    static double medianCell(List<Pair> pairs) {
        return median(cells(pairs));
    }

    /** What a figure measured {@link #beside} its cell is compared with. */
    static String besideLabel(String cell, List<Pair> pairs) {
        return cell + ", run again beside each round (median of " + pairs.size() + ")";
    }

    private static JsonArrayBuilder pairsJson(List<Pair> pairs) {
        JsonArrayBuilder a = Json.createArrayBuilder();
        pairs.forEach(p -> a.add(p.json()));
        return a;
    }

    private double cell(String name) {
        OptionalDouble v = ceiling.cell(name);
        return v.isPresent() ? v.getAsDouble() : Double.NaN;
    }

    static double median(List<Backlog.Drained> rounds) {
        return median(rates(rounds));
    }

    /** The median of the server-side rates of {@code runs}. */
    static double medianRate(List<Enqueued> runs) {
        return median(serverRates(runs));
    }

    /** Each round's rate, in round order. */
    static double[] rates(List<Backlog.Drained> rounds) {
        return rounds.stream().mapToDouble(Backlog.Drained::rate).toArray();
    }

    /** Each run's server-side rate, in round order. */
    static double[] serverRates(List<Enqueued> runs) {
        return runs.stream().mapToDouble(Enqueued::serverRate).toArray();
    }

    /** Weir's rate in each round measured beside its cell, in round order. */
    static double[] weirs(List<Pair> pairs) {
        return pairs.stream().mapToDouble(Pair::weir).toArray();
    }

    /** The cell's rate beside each round, in round order. */
    static double[] cells(List<Pair> pairs) {
        return pairs.stream().mapToDouble(Pair::cell).toArray();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The CPU a drain took per 1000 jobs, of the server and of the database, for a round's log line. */
    private static String cpu(Backlog.Drained d) {
        return cpu(d.serverCpuPer1000(), d.databaseCpuPer1000());
    }

    /** CPU milliseconds per 1000 jobs of the server and of the database, for a round's log line. */
    private static String cpu(double serverMs, double databaseMs) {
        return "CPU per 1000 jobs: server " + millis(serverMs) + ", database " + millis(databaseMs);
    }

    /**
     * Milliseconds; or what a NaN means here, that the harness cannot see that process's CPU (a remote database); or
     * what an infinity means, that the round counted no job to divide by (a drain's completed jobs, a round of
     * submissions' acknowledged ones).
     */
    private static String millis(double ms) {
        if (Double.isNaN(ms)) {
            return "not measured";
        }
        if (Double.isInfinite(ms)) {
            return "none (no jobs)";
        }
        // A batch's few milliseconds per 1000 jobs need their tenths to show a change.
        return String.format(Locale.ROOT, ms < 10 ? "%.1f ms" : "%.0f ms", ms);
    }

    private static JsonArrayBuilder json(List<Backlog.Drained> rounds) {
        JsonArrayBuilder a = Json.createArrayBuilder();
        rounds.forEach(d -> a.add(d.json()));
        return a;
    }

    private static double ms(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1000.0;
    }

    private static JsonObjectBuilder percentiles(Histogram h) {
        return Json.createObjectBuilder().add("p50", ms(h, 50)).add("p95", ms(h, 95)).add("p99", ms(h, 99))
                .add("max", h.getMaxValue() / 1000.0).add("mean", h.getMean() / 1000.0).add("count", h.getTotalCount());
    }

    static void log(String format, Object... args) {
        System.out.println("  " + String.format(java.util.Locale.ROOT, format, args));
    }
}
