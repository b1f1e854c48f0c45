package dev.weir.bench;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The drain measurement every throughput scenario shares: a backlog of no-op jobs submitted while its queues are
 * paused, then how fast the server empties it once they are resumed.
 *
 * <p>The rate comes from the jobs' own timestamps, first {@code attempted_at} to last {@code finalized_at}, so
 * neither the submission nor the harness's polling is part of it; the harness polls through the partial indexes, at
 * a pace set by what each poll costs ({@link PollPace}), so it takes little from the server it measures. Before each
 * round the table is emptied ({@code TRUNCATE}), so every round starts from the same state as the ceiling's claim cells (a freshly loaded and
 * vacuumed table), not behind the dead rows of the rounds before it.
 */
final class Backlog {

    /**
     * What one drain did. Jobs claimed in one transaction share {@code attempted_at} (with renewal, ADR 0013, one
     * transaction may claim for several queues), and the jobs of one outcome batch share {@code finalized_at}.
     * {@code serverCpu} and {@code databaseCpu} are the CPU seconds the server's JVM and PostgreSQL used from the
     * resume until the harness saw the backlog finished ({@link CpuUse}; NaN where unknown).
     */
    record Drained(long jobs, double seconds, double jobsPerClaim, double jobsPerOutcomeBatch, double serverCpu,
            double databaseCpu) {

        double rate() {
            return jobs / seconds;
        }

        /** CPU milliseconds per 1000 completed jobs, of the server and of the database. */
        double serverCpuPer1000() {
            return CpuUse.msPer1000(serverCpu, jobs);
        }

        double databaseCpuPer1000() {
            return CpuUse.msPer1000(databaseCpu, jobs);
        }

        JsonObject json() {
            return Json.createObjectBuilder().add("jobs", jobs).add("seconds", seconds)
                    .add("jobsPerSecond", Report.json(rate()))
                    .add("jobsPerClaimingTransaction", jobsPerClaim)
                    .add("jobsPerOutcomeBatch", jobsPerOutcomeBatch)
                    .add("serverCpuMsPer1000Jobs", Report.json(serverCpuPer1000()))
                    .add("databaseCpuMsPer1000Jobs", Report.json(databaseCpuPer1000())).build();
        }
    }

    /** Called with the queues paused and the backlog submitted, just before they are resumed. */
    interface BeforeResume {
        void run() throws Exception;
    }

    private final WeirApi api;
    private final BenchDb db;
    private final CpuUse cpu;
    /** Each drain analyses the table once its backlog is in ({@code --analyze}). */
    private final boolean analyze;

    Backlog(WeirApi api, BenchDb db, CpuUse cpu, boolean analyze) {
        this.api = api;
        this.db = db;
        this.cpu = cpu;
        this.analyze = analyze;
    }

    /**
     * Waits until no job is running, then empties the table: the jobs of scenarios that leave a paused queue full
     * go with it. A job a resumed queue claims meanwhile is dropped too; its outcome then matches no row.
     */
    void reset() throws Exception {
        awaitNoneRunning();
        db.execute("TRUNCATE weir.jobs");
    }

    private void awaitNoneRunning() throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (true) {
            long poll = System.nanoTime();
            if (db.count("SELECT count(*) FROM weir.jobs WHERE state = 'running'") == 0) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("jobs still running after two minutes");
            }
            Thread.sleep(PollPace.afterPoll(System.nanoTime() - poll));
        }
    }

    Drained drain(List<String> queues, int jobs) throws Exception {
        return drain(queues, jobs, "{\"kind\":\"weir.noop\"}", () -> { }, 0);
    }

    /**
     * A drain cut short after {@code capSeconds} (0: never): the queues are paused then, the running jobs finish,
     * and the rate is over the jobs completed by then. For setups so slow that a whole backlog would take minutes.
     */
    Drained drainFor(List<String> queues, int jobs, int capSeconds) throws Exception {
        return drain(queues, jobs, "{\"kind\":\"weir.noop\"}", () -> { }, capSeconds);
    }

    /**
     * Submits {@code jobs} jobs spread evenly over {@code queues} (batches of up to 1000, taking the queues in
     * turn) while they are paused, resumes them and waits until every job is finished.
     */
    Drained drain(List<String> queues, int jobs, String jobJson, BeforeResume beforeResume, int capSeconds)
            throws Exception {
        return drain(queues, jobs, jobJson, beforeResume, capSeconds, 0);
    }

    /**
     * A drain over a table that already holds {@code history} completed jobs of the first queue, as a table that
     * keeps its finished jobs for retention does; once the backlog is in, the table is analysed, as autovacuum would
     * after so many inserts (ADR 0033). The rate is over the backlog alone.
     */
    Drained drainOverHistory(String queue, int jobs, int history) throws Exception {
        return drain(List.of(queue), jobs, "{\"kind\":\"weir.noop\"}", () -> db.execute("ANALYZE weir.jobs"), 0,
                history);
    }

    private Drained drain(List<String> queues, int jobs, String jobJson, BeforeResume beforeResume, int capSeconds,
            int history) throws Exception {
        reset();
        if (history > 0) {
            db.execute("INSERT INTO weir.jobs (kind, queue, state, attempt, attempted_at, finalized_at)"
                    + " SELECT 'weir.noop', '" + queues.get(0) + "', 'completed', 1, now(), now()"
                    + " FROM generate_series(1, " + history + ")");
        }
        long first = db.count("SELECT coalesce(max(id), 0) + 1 FROM weir.jobs");
        api.pauseAll(queues);
        int perQueue = jobs / queues.size();
        int batch = Math.min(1000, perQueue);
        List<String> bodies = new ArrayList<>();
        for (String q : queues) {
            String one = jobJson.substring(0, jobJson.length() - 1) + ",\"queue\":\"" + q + "\"}";
            String full = "[" + String.join(",", Collections.nCopies(batch, one)) + "]";
            for (int left = perQueue; left > 0; left -= batch) {
                bodies.add(left >= batch ? full : "[" + String.join(",", Collections.nCopies(left, one)) + "]");
            }
        }
        // Take the queues in turn, so that no queue's backlog is complete long before another's.
        List<String> ordered = new ArrayList<>(bodies.size());
        int batches = (perQueue + batch - 1) / batch;
        for (int i = 0; i < batches; i++) {
            for (int q = 0; q < queues.size(); q++) {
                ordered.add(bodies.get(q * batches + i));
            }
        }
        for (String body : ordered) {
            api.submitBatch(body);
        }
        beforeResume.run();
        if (analyze && history == 0) {
            db.execute("ANALYZE weir.jobs");
        }
        CpuUse.Reading cpuBefore = cpu.read();
        api.resumeAll(queues); // all at once: no queue starts a round trip after another
        boolean cut = false;
        if (capSeconds > 0) {
            long end = System.nanoTime() + capSeconds * 1_000_000_000L;
            while (true) {
                long poll = System.nanoTime();
                cut = outstanding(queues) > 0;
                long now = System.nanoTime();
                if (!cut || now >= end) {
                    break;
                }
                Thread.sleep(Math.min(PollPace.afterPoll(now - poll), Math.max(1, (end - now) / 1_000_000)));
            }
            if (cut) {
                api.pauseAll(queues);
                awaitNoneRunning();
            }
        } else {
            awaitNoneOutstanding(queues, 300_000);
        }
        CpuUse.Reading cpuAfter = cpu.read();
        List<Number> r = db.row("""
                SELECT count(*),
                       extract(epoch FROM max(finalized_at) - min(attempted_at)),
                       count(*)::float8 / greatest(count(DISTINCT attempted_at), 1),
                       count(*)::float8 / greatest(count(DISTINCT finalized_at), 1)
                FROM weir.jobs
                WHERE state = 'completed' AND id >= ?""", first);
        long done = r.get(0).longValue();
        if (!cut && done != (long) perQueue * queues.size()) {
            throw new IllegalStateException("submitted " + (long) perQueue * queues.size() + " jobs, " + done
                    + " completed");
        }
        return new Drained(done, r.get(1).doubleValue(), r.get(2).doubleValue(), r.get(3).doubleValue(),
                CpuUse.seconds(cpuBefore.serverNanos(), cpuAfter.serverNanos()),
                CpuUse.seconds(cpuBefore.databaseNanos(), cpuAfter.databaseNanos()));
    }

    /**
     * Waits until the given queues (every queue when empty) hold no unfinished job. Fails when the count has not
     * moved for a minute, or when {@code maxMillis} pass.
     */
    void awaitNoneOutstanding(List<String> queues, long maxMillis) throws Exception {
        long start = System.nanoTime();
        long last = -1;
        long lastChange = start;
        while (true) {
            long poll = System.nanoTime();
            long n = outstanding(queues);
            if (n == 0) {
                return;
            }
            long now = System.nanoTime();
            if (n != last) {
                last = n;
                lastChange = now;
            } else if (now - lastChange > 60_000_000_000L) {
                throw new IllegalStateException(n + " jobs still unfinished after a minute without progress");
            }
            if (now - start > maxMillis * 1_000_000L) {
                throw new IllegalStateException(n + " jobs still unfinished after " + maxMillis / 1000 + " s");
            }
            Thread.sleep(PollPace.afterPoll(now - poll));
        }
    }

    /**
     * Unfinished jobs, counted through the partial indexes, so the count does not grow with the finished jobs the
     * table keeps; it does grow with the backlog (about 180 ms for 200,000 available jobs), hence {@link PollPace}.
     */
    long outstanding(List<String> queues) throws SQLException {
        String[] names = queues.toArray(String[]::new);
        String filter = names.length == 0 ? "" : " AND queue = ANY (?)";
        Object[] params = names.length == 0 ? new Object[0] : new Object[] {names, names, names};
        return db.count("SELECT (SELECT count(*) FROM weir.jobs WHERE state = 'available'" + filter + ")"
                + " + (SELECT count(*) FROM weir.jobs WHERE state = 'running'" + filter + ")"
                + " + (SELECT count(*) FROM weir.jobs WHERE state IN ('scheduled', 'retryable')" + filter + ")",
                params);
    }

    /** The readings of the server's and the database's CPU that the drains use, for other measurements too. */
    CpuUse cpu() {
        return cpu;
    }
}
