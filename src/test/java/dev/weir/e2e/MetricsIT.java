package dev.weir.e2e;

import static dev.weir.e2e.Server.awaitState;
import static dev.weir.e2e.Server.post;
import static dev.weir.e2e.Server.submit;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code /metrics} on the running server: counters and timers move by exactly what this test's jobs did, gauges are
 * there, and a discarded job's lifecycle line reaches {@code messages.log}. The jobs go to queue {@code emails} with
 * {@code weir.fail}, which no other test uses, and with {@code weir.noop}, which other tests finish long before.
 */
class MetricsIT {

    /** One sample of the Prometheus text format: {@code name{label="value",…} number}. */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})?\\s+(\\S+)(\\s+\\S+)?$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    static List<Sample> parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line.strip());
            if (!m.matches()) {
                throw new AssertionError("not a Prometheus sample: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2).replace("\\\"", "\"").replace("\\n", "\n").replace("\\\\", "\\"));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
        }
        return samples;
    }

    private static List<Sample> scrape() {
        Server.Reply r = Server.get("/metrics", null);   // no credentials: /metrics is open like /health
        assertEquals(200, r.status(), r.body());
        return parse(r.body());
    }

    /** The value of the one series {@code name} whose labels include {@code tags} (pairs); 0 when absent. */
    static double value(List<Sample> samples, String name, String... tags) {
        Sample found = null;
        for (Sample s : samples) {
            if (s.name().equals(name) && has(s, tags)) {
                if (found != null) {
                    throw new AssertionError("two series " + name + " with " + List.of(tags) + ": " + found + ", " + s);
                }
                found = s;
            }
        }
        return found == null ? 0 : found.value();
    }

    private static boolean present(List<Sample> samples, String name, String... tags) {
        return samples.stream().anyMatch(s -> s.name().equals(name) && has(s, tags));
    }

    private static boolean has(Sample s, String... tags) {
        for (int i = 0; i < tags.length; i += 2) {
            if (!tags[i + 1].equals(s.labels().get(tags[i]))) {
                return false;
            }
        }
        return true;
    }

    private static double delta(List<Sample> before, List<Sample> after, String name, String... tags) {
        return value(after, name, tags) - value(before, name, tags);
    }

    @Test
    void countersAndTimersMoveByWhatTheJobsDid() {
        String[] noop = {"queue", "emails", "kind", "weir.noop"};
        String[] fail = {"queue", "emails", "kind", "weir.fail"};
        List<Sample> before = scrape();

        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(submit("{\"kind\": \"weir.noop\", \"queue\": \"emails\"}"));
        }
        long failsOnce = submit("{\"kind\": \"weir.fail\", \"queue\": \"emails\", \"args\": {\"times\": 1}}");
        long failsAlways = submit("{\"kind\": \"weir.fail\", \"queue\": \"emails\", \"args\": {\"times\": -1},"
                + " \"maxAttempts\": 1}");
        ids.forEach(id -> awaitState(id, "completed"));
        awaitState(failsOnce, "completed");
        awaitState(failsAlways, "discarded");
        // Outcomes are counted right after their commit, which the job's state may show a moment earlier.
        await().atMost(Duration.ofSeconds(5)).until(() -> delta(before, scrape(), "weir_jobs_completed_total", fail) == 1);
        List<Sample> after = scrape();

        assertEquals(5, delta(before, after, "weir_jobs_submitted_total", noop));
        assertEquals(5, delta(before, after, "weir_jobs_completed_total", noop));
        assertEquals(0, delta(before, after, "weir_jobs_failed_total", noop));
        assertEquals(5, delta(before, after, "weir_job_pickup_seconds_count", noop));
        assertEquals(5, delta(before, after, "weir_job_run_seconds_count", noop));

        assertEquals(2, delta(before, after, "weir_jobs_submitted_total", fail));
        assertEquals(1, delta(before, after, "weir_jobs_failed_total", fail), "the first attempt of times=1");
        assertEquals(1, delta(before, after, "weir_jobs_retried_total", fail), "its second attempt");
        assertEquals(1, delta(before, after, "weir_jobs_completed_total", fail));
        assertEquals(1, delta(before, after, "weir_jobs_discarded_total", fail), "times=-1 with one attempt");
        assertEquals(3, delta(before, after, "weir_job_pickup_seconds_count", fail));
        assertEquals(3, delta(before, after, "weir_job_run_seconds_count", fail));
        assertTrue(delta(before, after, "weir_job_pickup_seconds_sum", noop) > 0, "pickups take some time");
        // The retry's back-off (about a second) is not pickup latency: that counts from when the retry was due.
        assertTrue(delta(before, after, "weir_job_pickup_seconds_sum", fail) < 3 * 0.9,
                "pickup of weir.fail: " + delta(before, after, "weir_job_pickup_seconds_sum", fail));

        // Histogram buckets from the configuration (microprofile-config.properties), 250 ms among them.
        assertTrue(after.stream().anyMatch(s -> s.name().equals("weir_job_pickup_seconds_bucket")
                && has(s, noop) && s.labels().get("le").startsWith("0.25")), "configured buckets: " + after.stream()
                .filter(s -> s.name().equals("weir_job_pickup_seconds_bucket") && has(s, noop)).toList());
        // No client-side percentiles (ADR 0022): a timer with them has series with a quantile label.
        assertEquals(List.of(), after.stream().filter(s -> s.name().startsWith("weir_job_")
                && s.labels().containsKey("quantile")).toList(), "no quantiles on Weir's timers");
    }

    /** ADR 0022, amendment: Liberty's pool statistics are kept, its per-request HTTP timers are not collected. */
    @Test
    void libertysPoolStatisticsAreThereButNotItsPerRequestTimers() {
        assertEquals(200, Server.get("/api/queues", TestUser.VIEWER).status());   // a request any HTTP timer would count
        List<Sample> now = scrape();
        assertTrue(now.stream().anyMatch(s -> s.name().startsWith("connectionpool_")), "connection pool statistics");
        assertTrue(now.stream().anyMatch(s -> s.name().startsWith("threadpool_")), "thread pool statistics");
        assertTrue(now.stream().noneMatch(s -> s.name().startsWith("http_server_request")),
                "no per-request HTTP timers");
    }

    @Test
    void gaugesDescribeEveryQueue() {
        List<Sample> now = scrape();
        for (String q : List.of("default", "emails", "bounded", "tiny")) {
            assertTrue(present(now, "weir_queue_in_flight", "queue", q), q);
            assertTrue(present(now, "weir_queue_available", "queue", q), q);
        }
        assertTrue(present(now, "weir_queue_outstanding", "queue", "bounded"));
        assertEquals(50, value(now, "weir_queue_max_pending", "queue", "bounded"));
        assertTrue(!present(now, "weir_queue_outstanding", "queue", "default"), "an unbounded queue has no bound");
    }

    @Test
    void admissionRefusalsAreCounted() {
        List<Sample> before = scrape();
        assertEquals(204, post("/api/queues/tiny/pause", "").status());
        int refused = 0;
        try {
            for (int i = 0; i < 3; i++) {
                int status = post("/api/jobs", "{\"kind\": \"weir.noop\", \"queue\": \"tiny\"}").status();
                if (status == 429) {
                    refused++;
                }
            }
        } finally {
            post("/api/queues/tiny/resume", "");
        }
        assertTrue(refused >= 2, "tiny holds one job");
        assertEquals(refused, delta(before, scrape(), "weir_admission_refused_total", "queue", "tiny"));
    }

    @Test
    void aDiscardedJobLeavesOneGreppableLineInMessagesLog() throws IOException {
        long id = submit("{\"kind\": \"weir.fail\", \"queue\": \"emails\", \"args\": {\"times\": -1},"
                + " \"maxAttempts\": 1}");
        awaitState(id, "discarded");
        Path log = Path.of(System.getProperty("weir.it.server.dir"), "logs", "messages.log");
        String line = "weir.job discarded queue=emails kind=weir.fail id=" + id + " attempt=1 ";
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(log, StandardCharsets.UTF_8).contains(line));
        String found = Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(l -> l.contains(line))
                .findFirst().orElseThrow();
        assertTrue(found.contains("reason=\"java.lang.IllegalStateException: weir.fail: failing attempt 1"), found);
    }
}
