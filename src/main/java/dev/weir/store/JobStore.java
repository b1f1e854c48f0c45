package dev.weir.store;

import dev.weir.api.Progress;
import dev.weir.json.JsonText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every statement Weir runs against {@code weir.jobs}, each in the transaction of the {@link Sql} it is given.
 * Stateless; the SQL itself is in {@code dev/weir/store/sql/}.
 */
public final class JobStore {

    /** The channel {@code NOTIFY} uses to say a queue has new available jobs; the payload is the queue. */
    public static final String CHANNEL = "weir_jobs";
    /**
     * The channel for instructions to every instance; the payload is {@code cancel:<id>} (an operator asked to cancel
     * running job id: ADR 0021).
     */
    public static final String CONTROL_CHANNEL = "weir_control";

    private JobStore() {
    }

    /** A submitted job: new, or for a unique submission possibly the existing one ({@code duplicate}). */
    public record Inserted(long id, JobState state, String queue, boolean duplicate) {

        public Inserted(long id, JobState state, String queue) {
            this(id, state, queue, false);
        }
    }

    /**
     * Inserts one unique job, or answers the job that holds its key in its blocking states ({@code duplicate}).
     * Concurrent submissions of one key on any number of instances store one job; one waits for the other's
     * transaction to end.
     */
    public static Inserted insertUnique(Sql sql, NewJob job) {
        if (!job.unique()) {
            throw new IllegalArgumentException("not a unique job");
        }
        String states = "{" + String.join(",", job.uniqueStates()) + "}";
        for (int tries = 0; tries < 5; tries++) {
            List<Object[]> rows = sql.query(Queries.JOB_INSERT_UNIQUE, json(List.of(job)), job.uniqueKey(), states);
            if (!rows.isEmpty()) {
                Object[] r = rows.get(0);
                return new Inserted(Rows.longAt(r, 0), JobState.fromDb(Rows.stringAt(r, 1)), Rows.stringAt(r, 2),
                        Boolean.TRUE.equals(r[3]));
            }
            // The duplicate committed after this statement's snapshot was taken: look again with a new one.
        }
        throw new IllegalStateException("unique key " + job.uniqueKey() + " kept changing hands; try again");
    }

    /**
     * Inserts the jobs in one statement; returns them in the list's order. Jobs that differ in their arguments only
     * (the usual batch) go through job_insert_uniform.sql, the others through job_insert.sql, with an array per column.
     */
    public static List<Inserted> insert(Sql sql, List<NewJob> jobs) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        NewJob first = jobs.get(0);
        List<Object[]> rows = uniform(jobs)
                ? sql.query(Queries.JOB_INSERT_UNIFORM, first.kind(), first.queue(), first.priority(),
                        first.maxAttempts(), first.runAt() == null ? "" : first.runAt().toString(),
                        PgArrays.literal(jobs, NewJob::argsJson))
                : sql.query(Queries.JOB_INSERT, columns(jobs));
        return inIdOrder(rows);
    }

    /**
     * An insert's answer rows (id, state, queue) in id order, which is the order of the statement's input: identities
     * are drawn in the input's order, and RETURNING promises no order.
     */
    static List<Inserted> inIdOrder(List<Object[]> rows) {
        List<Inserted> inserted = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            inserted.add(new Inserted(Rows.longAt(row, 0), JobState.fromDb(Rows.stringAt(row, 1)),
                    Rows.stringAt(row, 2)));
        }
        inserted.sort((a, b) -> Long.compare(a.id(), b.id()));
        return inserted;
    }

    /** Whether the jobs share kind, queue, priority, max attempts and run_at (their arguments may differ). */
    static boolean uniform(List<NewJob> jobs) {
        NewJob first = jobs.get(0);
        for (NewJob j : jobs) {
            if (!j.kind().equals(first.kind()) || !j.queue().equals(first.queue()) || j.priority() != first.priority()
                    || j.maxAttempts() != first.maxAttempts() || !Objects.equals(j.runAt(), first.runAt())) {
                return false;
            }
        }
        return true;
    }

    /**
     * The jobs column by column, as job_insert.sql and admission_admit.sql take them: six array literals of one length
     * (kinds, queues, args, priorities, max attempts, run_at or null for now).
     */
    static Object[] columns(List<NewJob> jobs) {
        return new Object[] {PgArrays.literal(jobs, NewJob::kind), PgArrays.literal(jobs, NewJob::queue),
                PgArrays.literal(jobs, NewJob::argsJson), PgArrays.longs(jobs, NewJob::priority),
                PgArrays.longs(jobs, NewJob::maxAttempts),
                PgArrays.literal(jobs, j -> j.runAt() == null ? null : j.runAt().toString())};
    }

    /** The jobs as the JSON array job_insert_unique.sql takes. */
    static String json(List<NewJob> jobs) {
        StringBuilder json = new StringBuilder(jobs.size() * 96).append('[');
        for (NewJob job : jobs) {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append("{\"kind\":");
            JsonText.string(json, job.kind());
            json.append(",\"queue\":");
            JsonText.string(json, job.queue());
            json.append(",\"args\":").append(job.argsJson() == null ? "{}" : job.argsJson());
            json.append(",\"priority\":").append(job.priority());
            json.append(",\"max_attempts\":").append(job.maxAttempts());
            json.append(",\"run_at\":");
            JsonText.string(json, job.runAt() == null ? null : job.runAt().toString());
            json.append('}');
        }
        json.append(']');
        return json.toString();
    }

    /**
     * Tells every instance that {@code queues} have new available jobs. Call it after the jobs committed, outside the
     * transaction that inserted them. Queue names follow {@code [a-z][a-z0-9-]*}, so they need no quoting in the
     * array literal.
     */
    public static void announce(Sql sql, java.util.Collection<String> queues) {
        if (!queues.isEmpty()) {
            sql.query(Queries.JOB_ANNOUNCE, "{" + String.join(",", queues) + "}");
        }
    }

    /** Whether {@code queue} has an available job (one probe of the partial index {@code jobs_available}). */
    public static boolean anyAvailable(Sql sql, String queue) {
        List<Object[]> rows = sql.query(Queries.JOB_ANY_AVAILABLE, queue);
        return !rows.isEmpty() && Boolean.TRUE.equals(rows.get(0)[0]);
    }

    /** Claims up to {@code limit} available jobs of {@code queue} for {@code owner}, in priority order. */
    public static List<ClaimedJob> claim(Sql sql, String queue, int limit, String owner, long deadlineMs) {
        return claim(sql, new ClaimRequest(queue, limit, owner, deadlineMs, ClaimKey.START));
    }

    /**
     * Claims up to {@code limit} available jobs of {@code queue} that come after {@code after} in claim order, in
     * priority order. The index scan starts at {@code after}, so it does not step over the dead index entries that
     * the queue's earlier claims left at its head (ADR 0024).
     */
    public static List<ClaimedJob> claim(Sql sql, ClaimRequest request) {
        return turn(sql, List.of(), request).claimed();
    }

    /**
     * Writes a batch of outcomes in one statement. Returns the ids whose attempt was still running and so took
     * the outcome; an outcome missing from the answer came too late (its attempt was rescued or re-claimed).
     */
    public static Set<Long> finish(Sql sql, List<Finish> outcomes) {
        return finishStates(sql, outcomes).keySet();
    }

    /**
     * As {@link #finish}, with the state each applied outcome left its job in: the outcome's own, or
     * {@code cancelled} when an operator had asked to cancel the job (ADR 0021).
     */
    public static Map<Long, JobState> finishStates(Sql sql, List<Finish> outcomes) {
        return turn(sql, outcomes, List.of()).finished();
    }

    /**
     * A claim: up to {@code limit} available jobs of {@code queue} after {@code after} in claim order, for
     * {@code owner}, each attempt due to end within {@code deadlineMs}.
     */
    public record ClaimRequest(String queue, int limit, String owner, long deadlineMs, ClaimKey after, int part,
            int parts) {

        /** A claim from the whole queue. */
        public ClaimRequest(String queue, int limit, String owner, long deadlineMs, ClaimKey after) {
            this(queue, limit, owner, deadlineMs, after, 0, 1);
        }

        /** Only jobs whose {@code id % parts == part} (a completer lane's renewal, ADR 0032); 0 of 1: all. */
        public ClaimRequest {
            if (parts < 1 || part < 0 || part >= parts) {
                throw new IllegalArgumentException("part " + part + " of " + parts);
            }
        }
    }

    /**
     * What a turn did: the state each applied outcome left its job in (an outcome missing here came too late), and
     * the jobs it claimed, by priority, then id.
     */
    public record Turn(Map<Long, JobState> finished, List<ClaimedJob> claimed) {
    }

    /**
     * One turn of the engine in one statement (ADR 0026): writes {@code outcomes} and makes {@code claim} (null:
     * none). Outside a transaction the statement commits by itself, both parts or neither.
     */
    public static Turn turn(Sql sql, List<Finish> outcomes, ClaimRequest claim) {
        return turn(sql, outcomes, claim == null ? List.of() : List.of(claim));
    }

    /**
     * One turn of the engine in one statement (ADR 0026): writes {@code outcomes} and makes every claim of
     * {@code claims}, each in its own queue (at most one claim per queue; all for one owner). Outside a transaction
     * the statement commits by itself, every part or none. The claimed jobs of all queues come back in one list.
     */
    public static Turn turn(Sql sql, List<Finish> outcomes, List<ClaimRequest> claims) {
        List<ClaimRequest> wanted = claims.stream().filter(c -> c.limit() > 0).toList();
        if (outcomes.isEmpty() && wanted.isEmpty()) {
            return new Turn(Map.of(), List.of());
        }
        String owner = wanted.isEmpty() ? "" : wanted.get(0).owner();
        for (ClaimRequest c : wanted) {
            if (!c.owner().equals(owner)) {
                throw new IllegalArgumentException("the claims of one turn are for one owner: " + claims);
            }
        }
        List<Object[]> rows = sql.query(Queries.JOB_TURN, PgArrays.longs(outcomes, Finish::id),
                PgArrays.longs(outcomes, Finish::lease), PgArrays.literal(outcomes, f -> f.state().dbName()),
                PgArrays.longs(outcomes, Finish::delayMs), PgArrays.literal(outcomes, Finish::error),
                PgArrays.booleans(outcomes, Finish::refund), claimsJson(wanted), owner);
        Map<Long, JobState> finished = new HashMap<>(rows.size() * 2);
        List<ClaimedJob> jobs = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            long id = Rows.longAt(row, 1);
            if (Boolean.TRUE.equals(row[0])) {
                finished.put(id, JobState.fromDb(Rows.stringAt(row, 2)));
                continue;
            }
            int priority = Rows.intAt(row, 8);
            jobs.add(new ClaimedJob(id, Rows.stringAt(row, 2), Rows.stringAt(row, 3), Rows.stringAt(row, 4),
                    Rows.intAt(row, 5), Rows.intAt(row, 6), Rows.longAt(row, 7), priority, Rows.stringAt(row, 9),
                    Rows.longAt(row, 10), new ClaimKey(priority, Rows.longAt(row, 11), id)));
        }
        // RETURNING gives no order; start the batch by priority, then by id (close to the order it was picked in).
        jobs.sort((a, b) -> a.priority() != b.priority() ? Integer.compare(a.priority(), b.priority())
                : Long.compare(a.id(), b.id()));
        return new Turn(finished, jobs);
    }

    private static String claimsJson(List<ClaimRequest> claims) {
        StringBuilder json = new StringBuilder(2 + claims.size() * 100).append('[');
        for (ClaimRequest c : claims) {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append("{\"queue\":");
            JsonText.string(json, c.queue());
            json.append(",\"n\":").append(c.limit())
                    .append(",\"deadline_ms\":").append(c.deadlineMs())
                    .append(",\"priority\":").append(c.after().priority())
                    .append(",\"run_at_us\":").append(c.after().runAtMicros())
                    .append(",\"id\":").append(c.after().id())
                    .append(",\"part\":").append(c.part())
                    .append(",\"parts\":").append(c.parts()).append('}');
        }
        return json.append(']').toString();
    }

    /**
     * Records the progress of the attempt {@code (id, lease)} if it still runs; the checkpoint must be JSON already.
     * Returns whether it was written.
     */
    public static boolean progress(Sql sql, long id, long lease, Progress progress) {
        String checkpoint = progress.checkpointJson();
        StringBuilder json = new StringBuilder(64 + (checkpoint == null ? 0 : checkpoint.length()));
        json.append("{\"percent\":").append(progress.percent()).append(",\"message\":");
        JsonText.string(json, progress.message());
        json.append(",\"checkpoint\":").append(checkpoint == null ? "null" : checkpoint).append('}');
        return sql.update(Queries.JOB_PROGRESS, id, lease, json.toString()) == 1;
    }

    /** Makes sure periodic job {@code name} exists; a changed schedule or zone starts over at {@code nextFire}. */
    public static void registerPeriodic(Sql sql, String name, String schedule, String zone, java.time.Instant nextFire) {
        sql.update(Queries.PERIODIC_REGISTER, name, schedule, zone, nextFire.getEpochSecond());
    }

    /** A periodic job as stored: its pause, next fire and last fire (null if it never fired). */
    public record PeriodicState(String name, boolean paused, java.time.Instant nextFire, java.time.Instant lastFire) {
    }

    /** Every stored periodic job, by name. */
    public static Map<String, PeriodicState> periodicStates(Sql sql) {
        Map<String, PeriodicState> states = new LinkedHashMap<>();
        for (Object[] r : sql.query(Queries.PERIODIC_LIST)) {
            states.put(Rows.stringAt(r, 0), new PeriodicState(Rows.stringAt(r, 0), Boolean.TRUE.equals(r[1]),
                    java.time.Instant.ofEpochSecond(Rows.longAt(r, 2)),
                    r[3] == null ? null : java.time.Instant.ofEpochSecond(Rows.longAt(r, 3))));
        }
        return states;
    }

    /** Pauses or resumes a periodic job; false if the database does not know it. */
    public static boolean setPeriodicPaused(Sql sql, String name, boolean paused) {
        return sql.update(Queries.PERIODIC_SET_PAUSED, name, paused) == 1;
    }

    /** Submits one job of a periodic job now, off its schedule; empty if the database does not know it. */
    public static Optional<Long> runPeriodicNow(Sql sql, String name, String kind, String queue, String argsJson) {
        List<Object[]> rows = sql.query(Queries.PERIODIC_RUN_NOW, name, kind, queue, argsJson);
        return rows.isEmpty() ? Optional.empty() : Optional.of(Rows.longAt(rows.get(0), 0));
    }

    /** Periodic jobs due now and not paused: name → the due fire (epoch seconds). */
    public static Map<String, Long> duePeriodic(Sql sql) {
        Map<String, Long> due = new LinkedHashMap<>();
        for (Object[] row : sql.query(Queries.PERIODIC_DUE)) {
            due.put(Rows.stringAt(row, 0), Rows.longAt(row, 1));
        }
        return due;
    }

    /**
     * Fires periodic job {@code name} if its next fire is still {@code dueEpochSecond}: moves it to
     * {@code nextEpochSecond} and inserts one available job, in one statement. Returns the job's id, or empty when
     * another fire (or a pause) came first.
     */
    public static Optional<Long> firePeriodic(Sql sql, String name, long dueEpochSecond, long nextEpochSecond,
            String kind, String queue, String argsJson) {
        List<Object[]> rows = sql.query(Queries.PERIODIC_FIRE, name, dueEpochSecond, nextEpochSecond, kind, queue,
                argsJson);
        return rows.isEmpty() ? Optional.empty() : Optional.of(Rows.longAt(rows.get(0), 0));
    }

    /**
     * Priority aging: moves up one level the available jobs of {@code queue} at {@code priority} (2–4) that have
     * waited {@code agingMs} for every level they have moved so far plus one; at most {@code limit}; returns how
     * many moved.
     */
    public static int age(Sql sql, String queue, int priority, long agingMs, int limit) {
        List<Object[]> rows = sql.query(Queries.JOB_AGE, queue, agingMs, priority, limit);
        return rows.isEmpty() ? 0 : Rows.intAt(rows.get(0), 0);
    }

    /**
     * Retention: deletes at most {@code limit} jobs in the terminal {@code state} that reached it more than
     * {@code olderThanMs} ago, oldest first; returns how many.
     *
     * @throws IllegalArgumentException if {@code state} is not terminal
     */
    public static int deleteFinished(Sql sql, JobState state, long olderThanMs, int limit) {
        if (!state.terminal()) {
            throw new IllegalArgumentException("retention deletes only finished jobs, not " + state.dbName());
        }
        List<Object[]> rows = sql.query(Queries.JOB_DELETE_FINISHED, state.dbName(), olderThanMs, limit);
        return rows.isEmpty() ? 0 : Rows.intAt(rows.get(0), 0);
    }

    /** Makes due scheduled and retryable jobs available, at most {@code limit}; returns how many. */
    public static int promoteDue(Sql sql, int limit) {
        List<Object[]> rows = sql.query(Queries.JOB_PROMOTE_DUE, limit);
        return rows.isEmpty() ? 0 : Rows.intAt(rows.get(0), 0);
    }

    /** Rescues running attempts whose owner is silent or which are far past their deadline; returns id → new state. */
    public static Map<Long, JobState> rescue(Sql sql, long rescueAfterMs, long deadlineGraceMs, int limit) {
        Map<Long, JobState> rescued = new LinkedHashMap<>();
        for (Rescued r : rescueJobs(sql, rescueAfterMs, deadlineGraceMs, limit)) {
            rescued.put(r.id(), r.state());
        }
        return rescued;
    }

    /** A rescued attempt: the job, its new state ({@code available} or {@code discarded}) and why. */
    public record Rescued(long id, JobState state, String queue, String kind, int attempt, String reason) {
    }

    /** As {@link #rescue}, with each job's queue, kind, attempt and reason, in id order. */
    public static List<Rescued> rescueJobs(Sql sql, long rescueAfterMs, long deadlineGraceMs, int limit) {
        List<Object[]> rows = sql.query(Queries.JOB_RESCUE, rescueAfterMs, deadlineGraceMs, limit);
        List<Rescued> rescued = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            rescued.add(new Rescued(Rows.longAt(row, 0), JobState.fromDb(Rows.stringAt(row, 1)), Rows.stringAt(row, 3),
                    Rows.stringAt(row, 4), Rows.intAt(row, 5), Rows.stringAt(row, 6)));
        }
        rescued.sort((a, b) -> Long.compare(a.id(), b.id()));
        return rescued;
    }

    /**
     * Writes {@code instance}'s heartbeat; answers whether another instance wrote one within the last {@code aliveMs}
     * (ADR 0040).
     */
    public static boolean heartbeat(Sql sql, String instance, long aliveMs) {
        return Boolean.TRUE.equals(sql.query(Queries.INSTANCE_HEARTBEAT, instance, aliveMs).get(0)[0]);
    }

    /**
     * Tells the instances already running that one has started: a notification on {@link #CHANNEL} with an empty
     * payload, which names no queue (ADR 0040).
     */
    public static void hello(Sql sql) {
        sql.query(Queries.INSTANCE_HELLO);
    }

    /** Forgets {@code instance}, and every instance silent for longer than {@code silentMs}. */
    public static void deleteInstances(Sql sql, String instance, long silentMs) {
        sql.update(Queries.INSTANCE_DELETE, instance, silentMs);
    }

    public static Optional<JobView> get(Sql sql, long id) {
        List<Object[]> rows = sql.query(Queries.JOB_GET, id);
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Object[] r = rows.get(0);
        return Optional.of(new JobView(Rows.longAt(r, 0), Rows.stringAt(r, 1), Rows.stringAt(r, 2),
                JobState.fromDb(Rows.stringAt(r, 3)), Rows.intAt(r, 4), Rows.intAt(r, 5), Rows.intAt(r, 6),
                Rows.instantAt(r, 7), Rows.instantAt(r, 8), Rows.instantAt(r, 9), Rows.instantAt(r, 10),
                Rows.stringAt(r, 11), Rows.stringAt(r, 12), Rows.stringAt(r, 13), Boolean.TRUE.equals(r[14])));
    }

    /** A job as the admin API lists it: no arguments, no history but the last error. */
    public record JobSummary(long id, String kind, String queue, JobState state, int attempt, int maxAttempts,
            int priority, java.time.Instant runAt, java.time.Instant createdAt, java.time.Instant attemptedAt,
            java.time.Instant finalizedAt, String lastError, String progressJson, boolean cancelRequested) {
    }

    /**
     * A page of the job list: the jobs found, newest first, the lowest id looked at (null if none) and how many ids
     * were looked at.
     */
    public record JobPage(List<JobSummary> jobs, Long lowestLooked, long looked) {
    }

    /**
     * The jobs below id {@code before} matching the filters ({@code null}: any), newest first, at most {@code limit},
     * looking at no more than {@code lookAt} ids (one backward range scan of the primary key: ADR 0021).
     */
    public static JobPage list(Sql sql, long before, JobState state, String queue, String kind, int limit,
            int lookAt) {
        List<Object[]> rows = sql.query(Queries.JOB_LIST, before, state == null ? "" : state.dbName(),
                queue == null ? "" : queue, kind == null ? "" : kind, limit, lookAt);
        List<JobSummary> jobs = new ArrayList<>(rows.size());
        Long lowest = null;
        long looked = 0;
        for (Object[] r : rows) {
            lowest = r[14] == null ? null : Rows.longAt(r, 14);
            looked = Rows.longAt(r, 15);
            if (r[0] != null) {
                jobs.add(new JobSummary(Rows.longAt(r, 0), Rows.stringAt(r, 1), Rows.stringAt(r, 2),
                        JobState.fromDb(Rows.stringAt(r, 3)), Rows.intAt(r, 4), Rows.intAt(r, 5), Rows.intAt(r, 6),
                        Rows.instantAt(r, 7), Rows.instantAt(r, 8), Rows.instantAt(r, 9), Rows.instantAt(r, 10),
                        Rows.stringAt(r, 11), Rows.stringAt(r, 12), Boolean.TRUE.equals(r[13])));
            }
        }
        return new JobPage(jobs, lowest, looked);
    }

    /** A job locked for an operator action: its queue, state, and whether retrying it would clash on its unique key. */
    public record Locked(long id, String queue, JobState state, boolean uniqueClash) {
    }

    /** Locks job {@code id} for an operator action (retry, cancel, discard); empty if there is none. */
    public static Optional<Locked> lock(Sql sql, long id) {
        List<Object[]> rows = sql.query(Queries.JOB_LOCK, id);
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Object[] r = rows.get(0);
        return Optional.of(new Locked(Rows.longAt(r, 0), Rows.stringAt(r, 1), JobState.fromDb(Rows.stringAt(r, 2)),
                Boolean.TRUE.equals(r[3])));
    }

    /**
     * Locks the next discarded jobs after id {@code after} of {@code queue} and {@code kind} (null: any), in id
     * order, at most {@code limit}; jobs other transactions hold are skipped. State: always discarded.
     */
    public static List<Locked> lockDiscarded(Sql sql, long after, String queue, String kind, int limit) {
        List<Object[]> rows = sql.query(Queries.JOB_DISCARDED_BATCH, after, queue == null ? "" : queue,
                kind == null ? "" : kind, limit);
        List<Locked> locked = new ArrayList<>(rows.size());
        for (Object[] r : rows) {
            locked.add(new Locked(Rows.longAt(r, 0), Rows.stringAt(r, 1), JobState.DISCARDED,
                    Boolean.TRUE.equals(r[2])));
        }
        return locked;
    }

    /**
     * Operator retry: the jobs {@code ids} (locked by the caller) that wait or are terminal become available now, with
     * an attempt left; their queues are woken when the transaction commits. Returns how many moved.
     */
    public static int retry(Sql sql, java.util.Collection<Long> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        StringBuilder array = new StringBuilder(ids.size() * 8).append('{');
        for (Long id : ids) {
            if (array.length() > 1) {
                array.append(',');
            }
            array.append(id.longValue());
        }
        return sql.query(Queries.JOB_RETRY, array.append('}').toString()).size();
    }

    /** Operator cancel of a waiting job (locked by the caller): cancelled at once. Returns whether it applied. */
    public static boolean cancelNow(Sql sql, long id) {
        return sql.update(Queries.JOB_CANCEL_NOW, id) == 1;
    }

    /**
     * Operator cancel of a running job (locked by the caller): records the request and notifies every instance on
     * {@link #CONTROL_CHANNEL} at commit. Returns whether it applied.
     */
    public static boolean requestCancel(Sql sql, long id) {
        List<Object[]> rows = sql.query(Queries.JOB_CANCEL_REQUEST, id);
        return !rows.isEmpty() && Rows.longAt(rows.get(0), 0) == 1;
    }

    /** The running attempts of {@code instance} an operator asked to cancel: id → run lease. */
    public static Map<Long, Long> cancelRequested(Sql sql, String instance) {
        Map<Long, Long> requested = new HashMap<>();
        for (Object[] r : sql.query(Queries.JOB_CANCEL_REQUESTED, instance)) {
            requested.put(Rows.longAt(r, 0), Rows.longAt(r, 1));
        }
        return requested;
    }

    /** Operator discard of a waiting job (locked by the caller): discarded at once. Returns whether it applied. */
    public static boolean discardNow(Sql sql, long id) {
        return sql.update(Queries.JOB_DISCARD_NOW, id) == 1;
    }

    /** Jobs finalized in one bucket of a throughput window, by terminal state. */
    public record FinalizedCount(long bucket, JobState state, long count) {
    }

    /**
     * Jobs finalized from epoch second {@code fromEpochSecond} (inclusive) to {@code toEpochSecond} (exclusive), per
     * bucket of {@code bucketSeconds} (numbered from 0) and state, of {@code queue} (null: all); empty buckets absent.
     */
    public static List<FinalizedCount> finalizedPerBucket(Sql sql, long fromEpochSecond, long toEpochSecond,
            int bucketSeconds, String queue) {
        List<FinalizedCount> counts = new ArrayList<>();
        for (Object[] r : sql.query(Queries.STATS_THROUGHPUT, fromEpochSecond, toEpochSecond, bucketSeconds,
                queue == null ? "" : queue)) {
            counts.add(new FinalizedCount(Rows.longAt(r, 0), JobState.fromDb(Rows.stringAt(r, 1)), Rows.longAt(r, 2)));
        }
        return counts;
    }

    /** Jobs per queue and state; a state with no job is absent. */
    public static Map<String, Map<JobState, Long>> countsByQueue(Sql sql) {
        Map<String, Map<JobState, Long>> counts = new HashMap<>();
        for (Object[] row : sql.query(Queries.QUEUE_COUNTS)) {
            counts.computeIfAbsent(Rows.stringAt(row, 0), q -> new java.util.EnumMap<>(JobState.class))
                    .put(JobState.fromDb(Rows.stringAt(row, 1)), Rows.longAt(row, 2));
        }
        return counts;
    }

    /** Available jobs per queue; a queue with none is absent. Reads the partial index of the claim. */
    public static Map<String, Long> availableByQueue(Sql sql) {
        Map<String, Long> counts = new HashMap<>();
        for (Object[] row : sql.query(Queries.QUEUE_AVAILABLE)) {
            counts.put(Rows.stringAt(row, 0), Rows.longAt(row, 1));
        }
        return counts;
    }

    public static Set<String> pausedQueues(Sql sql) {
        Set<String> paused = new java.util.HashSet<>();
        for (Object[] row : sql.query(Queries.QUEUE_PAUSED)) {
            paused.add(Rows.stringAt(row, 0));
        }
        return paused;
    }

    public static void setPaused(Sql sql, String queue, boolean paused) {
        sql.query(Queries.QUEUE_SET_PAUSED, queue, paused);
    }

    /** Readiness probe: read-only, proves the database answers and the schema exists. */
    public static void probe(Sql sql) {
        sql.query(Queries.DATABASE_PROBE);
    }

    /**
     * One of Weir's tables as PostgreSQL's statistics see it.
     *
     * @param table    its name in schema {@code weir}
     * @param deadRows rows dead and not yet vacuumed ({@code n_dead_tup})
     * @param vacuums  how many vacuums it has had, manual and automatic
     * @param running  whether a vacuum of it is under way (as far as this role may see)
     * @param liveRows its live rows ({@code n_live_tup})
     * @param inserted rows inserted since its last vacuum ({@code n_ins_since_vacuum})
     */
    public record TableStats(String table, long deadRows, long vacuums, boolean running, long liveRows,
            long inserted) {
    }

    /** The statistics of every table in schema {@code weir}, in name order. Read-only. */
    public static List<TableStats> tableStats(Sql sql) {
        List<TableStats> tables = new ArrayList<>();
        for (Object[] row : sql.query(Queries.TABLE_STATS)) {
            tables.add(new TableStats(Rows.stringAt(row, 0), Rows.longAt(row, 1), Rows.longAt(row, 2),
                    Boolean.TRUE.equals(row[3]), Rows.longAt(row, 4), Rows.longAt(row, 5)));
        }
        return tables;
    }
}
