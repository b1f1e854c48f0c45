package dev.weir.bench;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Weir in the cross-system PostgreSQL queue benchmark: a long-running process configured by the protocol's
 * environment variables that writes one JSON line per sampling tick to standard output (everything else goes to
 * standard error).
 *
 * <ul>
 * <li>{@code DATABASE_URL} ({@code postgres://user:password@host:port/database}): where Weir keeps its jobs;
 * <li>{@code PRODUCER_RATE}: jobs submitted per second (default 100);
 * <li>{@code WORKER_COUNT}: Weir's workers, {@code max-workers} of the one queue (default 16);
 * <li>{@code JOB_WORK_MS}: what each job does: {@code weir.sleep} for that many ms (default 0);
 * <li>{@code SAMPLE_EVERY_S}: seconds between lines (default 1).
 * </ul>
 *
 * <p>It starts Weir's runnable jar against that database, one queue, and submits through the REST API, as an
 * application outside the server would. The first line describes the set-up; each later line holds
 * {@code claim_p50_ms}, {@code claim_p95_ms}, {@code claim_p99_ms} (from a job's {@code run_at} to the claim that
 * started it, over the jobs started in the tick), {@code enqueue_rate} (jobs the server acknowledged per second),
 * {@code completion_rate} (jobs finished per second) and {@code queue_depth} (jobs available and not yet claimed).
 * All but {@code enqueue_rate} come from the jobs table and PostgreSQL's clock. A claim or outcome is visible only
 * once its transaction commits, so each tick's window ends {@value #SETTLE_SECONDS} s before the tick: late commits
 * are counted in the window where they belong, not lost.
 */
public final class CrossSystemAdapter {

    static final double SETTLE_SECONDS = 1.0;

    private CrossSystemAdapter() {
    }

    public static void main(String[] args) throws Exception {
        DatabaseUrl db = DatabaseUrl.parse(System.getenv("DATABASE_URL"));
        double rate = number("PRODUCER_RATE", 100);
        int workers = (int) number("WORKER_COUNT", 16);
        long workMs = (long) number("JOB_WORK_MS", 0);
        double sampleEvery = number("SAMPLE_EVERY_S", 1);
        int port = (int) number("WEIR_ADAPTER_HTTP_PORT", 9690);
        Path jar = Path.of(env("WEIR_SERVER_JAR", "target/weir-server.jar"));

        String password = UUID.randomUUID().toString();
        Map<String, String> settings = new HashMap<>(Map.of(
                "WEIR_DB_URL", db.jdbcUrl(),
                "WEIR_DB_USER", db.user(),
                "WEIR_QUEUES", "default",
                "WEIR_QUEUE_DEFAULT_MAX_WORKERS", Integer.toString(workers),
                "WEIR_DIAGNOSTICS_ENABLED", "true",
                "WEIR_ADMIN_PASSWORD", password));
        if (!db.password().isEmpty()) {
            settings.put("WEIR_DB_PASSWORD", db.password());
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        System.err.println("starting Weir on port " + port + " against " + db.jdbcUrl());
        WeirServer server = WeirServer.start("weir", java, jar, settings, port, Path.of("target/adapter"),
                Duration.ofSeconds(300));
        Thread producerThread = null;
        try (BenchDb reader = BenchDb.open(db.jdbcUrl(), db.user(), db.password())) {
            WeirApi api = new WeirApi(server.baseUrl(), password);
            Producer producer = new Producer(api, rate, "{\"kind\":\"weir.sleep\",\"args\":{\"ms\":" + workMs + "}}");
            Thread stopping = new Thread(() -> {
                producer.stop();
                server.close();
            });
            Runtime.getRuntime().addShutdownHook(stopping);

            emit(Json.createObjectBuilder()
                    .add("type", "descriptor")
                    .add("system", "weir")
                    .add("language", "java")
                    .add("runtime", "Open Liberty, runnable jar, Java " + System.getProperty("java.version"))
                    .add("producer_rate", rate)
                    .add("worker_count", workers)
                    .add("job_work_ms", workMs)
                    .add("sample_every_s", sampleEvery)
                    .add("enqueue", "POST /api/jobs (single) or /api/jobs/batch, one producer thread")
                    .add("job", "weir.sleep {\"ms\": " + workMs + "}")
                    .add("claim_latency", "attempted_at - run_at, PostgreSQL clock")
                    .add("window_lag_s", SETTLE_SECONDS)
                    .add("started_at", Instant.now().toString()));

            producerThread = new Thread(producer, "producer");
            producerThread.setDaemon(true);
            producerThread.start();
            new Sampler(reader, producer).run(sampleEvery);
        } finally {
            if (producerThread != null) {
                producerThread.interrupt();
            }
        }
    }

    /**
     * Submits at a steady rate: every 10 ms it sends what is due since the start (one job alone, more as one
     * batch of up to 1000), so a slow answer is caught up with a larger batch instead of lowering the rate.
     */
    static final class Producer implements Runnable {

        private final WeirApi api;
        private final double rate;
        private final String job;
        private final AtomicLong acknowledged = new AtomicLong();
        private volatile boolean stopped;

        Producer(WeirApi api, double rate, String job) {
            this.api = api;
            this.rate = rate;
            this.job = job;
        }

        long acknowledged() {
            return acknowledged.get();
        }

        void stop() {
            stopped = true;
        }

        boolean stopped() {
            return stopped;
        }

        @Override
        public void run() {
            long start = System.nanoTime();
            long sent = 0;
            while (!stopped) {
                long due = (long) (rate * (System.nanoTime() - start) / 1e9) - sent;
                try {
                    if (due == 1) {
                        api.submit(job);
                    } else if (due > 1) {
                        due = Math.min(due, 1000);
                        api.submitBatch("[" + String.join(",", Collections.nCopies((int) due, job)) + "]");
                    }
                    if (due > 0) {
                        sent += due;
                        acknowledged.addAndGet(due);
                    }
                    if (due <= 1) {
                        Thread.sleep(10);
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    // The jobs were not submitted: they stay due and go with the next request.
                    System.err.println("submit failed: " + e.getMessage());
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException stop) {
                        return;
                    }
                }
            }
        }
    }

    /**
     * One line per tick over the window {@code (previous end, now − lag]}, read from the jobs table. A job started
     * or finished in the window was unfinished at the window's start or was created after it, so the queries
     * look only at ids from the lowest such id on (a primary-key range), however many finished rows the table
     * keeps; that low mark is taken at each tick and used once the window has moved past the tick.
     */
    static final class Sampler {

        private record Mark(double at, long lowestId) {
        }

        private final BenchDb db;
        private final Producer producer;
        private final Deque<Mark> marks = new ArrayDeque<>();

        Sampler(BenchDb db, Producer producer) {
            this.db = db;
            this.producer = producer;
        }

        void run(double every) throws Exception {
            double windowEnd = now() - SETTLE_SECONDS;
            // Until a tick's mark is older than the window's start, the window reads from the first id on.
            marks.add(new Mark(0, 0));
            marks.add(new Mark(now(), lowestUnfinishedId()));
            long acknowledged = producer.acknowledged();
            long tickNanos = System.nanoTime();
            long started = tickNanos;
            while (true) {
                long next = tickNanos + (long) (every * 1e9);
                Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
                if (producer.stopped()) {
                    return; // shutting down: no more lines
                }
                long nowNanos = System.nanoTime();
                long ack = producer.acknowledged();
                double enqueueRate = (ack - acknowledged) / ((nowNanos - tickNanos) / 1e9);
                acknowledged = ack;
                tickNanos = nowNanos;

                double dbNow = now();
                double start = windowEnd;
                windowEnd = dbNow - SETTLE_SECONDS;
                long low = lowFor(start);
                List<Number> claims = db.row("""
                        SELECT count(*),
                               percentile_cont(0.5) WITHIN GROUP (ORDER BY ms),
                               percentile_cont(0.95) WITHIN GROUP (ORDER BY ms),
                               percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)
                        FROM (SELECT extract(epoch FROM attempted_at - run_at)::float8 * 1000 AS ms
                              FROM weir.jobs
                              WHERE id >= ? AND attempted_at > to_timestamp(?) AND attempted_at <= to_timestamp(?)
                             ) AS started""", low, start, windowEnd);
                long completed = db.count("""
                        SELECT count(*) FROM weir.jobs
                        WHERE id >= ? AND finalized_at > to_timestamp(?) AND finalized_at <= to_timestamp(?)""",
                        low, start, windowEnd);
                long depth = db.count("SELECT count(*) FROM weir.jobs WHERE state = 'available'");
                marks.add(new Mark(dbNow, lowestUnfinishedId()));

                double seconds = windowEnd - start;
                JsonObjectBuilder line = Json.createObjectBuilder()
                        .add("type", "sample")
                        .add("t", Math.round((nowNanos - started) / 1e6) / 1000.0);
                boolean any = claims.get(0).longValue() > 0;
                line.add("claim_p50_ms", any ? Report.json(claims.get(1).doubleValue()) : JsonValue.NULL)
                        .add("claim_p95_ms", any ? Report.json(claims.get(2).doubleValue()) : JsonValue.NULL)
                        .add("claim_p99_ms", any ? Report.json(claims.get(3).doubleValue()) : JsonValue.NULL)
                        .add("enqueue_rate", Report.json(enqueueRate))
                        .add("completion_rate", Report.json(completed / seconds))
                        .add("queue_depth", depth)
                        .add("claimed", claims.get(0).longValue());
                emit(line);
            }
        }

        /** The low mark of the latest tick at or before {@code time}; older ones are no longer needed. */
        private long lowFor(double time) {
            while (marks.size() > 1) {
                Iterator<Mark> m = marks.iterator();
                m.next();
                if (m.next().at() > time) {
                    break;
                }
                marks.removeFirst();
            }
            return marks.peekFirst().lowestId();
        }

        private double now() throws SQLException {
            return db.row("SELECT extract(epoch FROM clock_timestamp())").get(0).doubleValue();
        }

        /** The lowest id of an unfinished job, or the next id if none is unfinished; each term reads an index. */
        private long lowestUnfinishedId() throws SQLException {
            return db.count("""
                    SELECT least((SELECT min(id) FROM weir.jobs WHERE state = 'available'),
                                 (SELECT min(id) FROM weir.jobs WHERE state = 'running'),
                                 (SELECT min(id) FROM weir.jobs WHERE state IN ('scheduled', 'retryable')),
                                 (SELECT coalesce(max(id), 0) + 1 FROM weir.jobs))""");
        }
    }

    private static synchronized void emit(JsonObjectBuilder line) {
        System.out.println(line.build());
        System.out.flush();
    }

    private static double number(String name, double fallback) {
        String v = env(name, null);
        if (v == null) {
            return fallback;
        }
        try {
            double d = Double.parseDouble(v);
            if (d >= 0 && Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(name + " must be a number ≥ 0, not '" + v + "'");
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
