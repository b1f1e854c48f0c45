package dev.weir.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * Elastic admission in the database (ADR 0011): every bounded queue owns exactly {@code max-pending} rows of
 * {@code weir.admission_slots}, and each admitted job takes one in the submitting transaction. A slot is free when it
 * points at no job, at a job that no longer exists, or at a terminal one; so the room comes back by itself on every
 * path that ends a job, and nothing on the completion path writes here. Stateless; SQL in {@code sql/admission_*}.
 */
public final class AdmissionSlots {

    /** Names Weir's slot reconciliation among the database's advisory locks (1: migrations, 2: the leader). */
    private static final long RECONCILE_LOCK = 0x5765697200000003L;
    /** The first admission statement looks at this many slots beyond the k it needs, at least. */
    static final int WINDOW_SLACK = 32;
    /** The admission statements, one text per window: the window is written into the text (ADR 0038). */
    private static final WindowedStatement ADMIT = new WindowedStatement(Queries.ADMISSION_ADMIT);
    private static final WindowedStatement TAKE = new WindowedStatement(Queries.ADMISSION_TAKE);

    private AdmissionSlots() {
    }

    /**
     * The answer for a whole submission: every job inserted (in the submission's order), or a refusal naming the
     * first bounded queue that had no room and how many slots it could have given (at most its share, less than
     * that).
     */
    public record Result(List<JobStore.Inserted> inserted, String refusedQueue, int requested, long available) {
        public boolean admitted() {
            return refusedQueue == null;
        }

        static Result refused(String queue, int requested, long available) {
            return new Result(List.of(), queue, requested, available);
        }
    }

    /**
     * Whether no job goes to a queue of {@code bounds} (bounded queue → anything); a run of jobs of one queue is looked
     * up once.
     */
    public static boolean noneBounded(List<NewJob> jobs, Map<String, ?> bounds) {
        if (bounds.isEmpty()) {
            return true;
        }
        String looked = null;
        for (NewJob j : jobs) {
            if (!j.queue().equals(looked)) {
                if (bounds.containsKey(j.queue())) {
                    return false;
                }
                looked = j.queue();
            }
        }
        return true;
    }

    /**
     * Inserts {@code jobs} in the current transaction, taking one admission slot per job of a queue in
     * {@code bounds} (queue → its {@link SlotCursor}, which only says where to start looking); jobs of other queues are
     * inserted as {@link JobStore#insert} does. All or nothing: when any bounded queue has too few slots free, nothing
     * is stored. Never waits for a lock.
     *
     * <p>One statement per bounded queue, plus one for the unbounded rest. A submission spanning several bounded
     * queues runs inside a savepoint, so that a refusal by the second queue can undo what the first admitted without
     * touching the rest of the caller's transaction.
     */
    public static Result insert(Sql sql, List<NewJob> jobs, Map<String, SlotCursor> bounds) {
        if (noneBounded(jobs, bounds)) {
            return new Result(JobStore.insert(sql, jobs), null, 0, 0);
        }
        Map<String, List<Integer>> boundedPositions = new TreeMap<>();
        List<Integer> freePositions = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            String q = jobs.get(i).queue();
            if (bounds.containsKey(q)) {
                boundedPositions.computeIfAbsent(q, k -> new ArrayList<>()).add(i);
            } else {
                freePositions.add(i);
            }
        }
        JobStore.Inserted[] placed = new JobStore.Inserted[jobs.size()];
        boolean savepoint = boundedPositions.size() > 1;
        if (savepoint) {
            sql.update(Queries.ADMISSION_SAVEPOINT);
        }
        for (Map.Entry<String, List<Integer>> q : boundedPositions.entrySet()) {
            List<NewJob> share = new ArrayList<>(q.getValue().size());
            q.getValue().forEach(i -> share.add(jobs.get(i)));
            Result r = admit(sql, q.getKey(), share, bounds.get(q.getKey()));
            if (!r.admitted()) {
                if (savepoint) {
                    sql.update(Queries.ADMISSION_ROLLBACK_TO_SAVEPOINT);
                }
                return r;
            }
            for (int n = 0; n < share.size(); n++) {
                placed[q.getValue().get(n)] = r.inserted().get(n);
            }
        }
        if (savepoint) {
            sql.update(Queries.ADMISSION_RELEASE_SAVEPOINT);
        }
        if (!freePositions.isEmpty()) {
            List<NewJob> rest = new ArrayList<>(freePositions.size());
            freePositions.forEach(i -> rest.add(jobs.get(i)));
            List<JobStore.Inserted> inserted = JobStore.insert(sql, rest);
            for (int n = 0; n < rest.size(); n++) {
                placed[freePositions.get(n)] = inserted.get(n);
            }
        }
        return new Result(List.of(placed), null, 0, 0);
    }

    /**
     * Admits jobs of one bounded queue: one slot each, all or nothing, in one statement (admission_admit.sql).
     *
     * <ol>
     * <li>Look at {@code window} slots ({@link #firstWindow}: at least {@code k + 32}) in slot order from the
     * {@code cursor} on, wrapping round, and keep those that look free in the statement's snapshot. The cursor moves
     * on by k, so concurrent submitters of this instance start at different slots.</li>
     * <li>Fewer than k: lock nothing.</li>
     * <li>Otherwise lock k of them with {@code SKIP LOCKED}, re-checking that each still points at the job the snapshot
     * judged; if k were locked, insert the jobs and point the slots at them. Done.</li>
     * <li>Not admitted, and the queue has more slots than the window: widen the window fourfold and go again (slots
     * already locked are this transaction's and are found again). Not admitted with every slot in view: refuse; what
     * is missing is taken, or held by submissions still in their transactions.</li>
     * </ol>
     * A window that fell short moves the cursor past it, so that the next admissions start beyond.
     */
    public static Result admit(Sql sql, String queue, List<NewJob> jobs, SlotCursor cursor) {
        int k = jobs.size();
        Object[] columns = JobStore.columns(jobs);
        long window = firstWindow(k);
        long position = cursor.reserve(k);
        int start = cursor.slotAt(position);
        while (true) {
            List<Object[]> rows = admitStatement(sql, window, columns, queue, k, start, false);
            Object[] first = rows.get(0);
            if (first[0] != null) {
                return new Result(JobStore.inIdOrder(rows), null, 0, 0);
            }
            long free = Rows.longAt(first, 3);
            long taken = Rows.longAt(first, 4);
            long looked = Rows.longAt(first, 5);
            cursor.skip(position, looked);
            if (looked == window) {
                // The queue has slots beyond the window: free ones may be there.
                window = window * 4;
                continue;
            }
            return Result.refused(queue, k, free < k ? free : taken);
        }
    }

    /**
     * Admits independent submissions of one job each to bounded queue {@code queue} in one statement, as many as it
     * can take slots for in one window ({@link #firstWindow}) from the {@code cursor} on: the first jobs of
     * the list, in order, one slot each. Answers their rows (possibly none); the caller submits the others one by one
     * with {@link #insert}, which widens the window and refuses properly. Never waits for a lock.
     */
    public static List<JobStore.Inserted> admitEach(Sql sql, String queue, List<NewJob> jobs, SlotCursor cursor) {
        int k = jobs.size();
        long window = firstWindow(k);
        long position = cursor.reserve(k);
        List<Object[]> rows = admitStatement(sql, window, JobStore.columns(jobs), queue, k, cursor.slotAt(position),
                true);
        List<JobStore.Inserted> inserted = rows.get(0)[0] == null ? List.of() : JobStore.inIdOrder(rows);
        if (inserted.size() < k) {
            cursor.skip(position, window);
        }
        return inserted;
    }

    /** Runs admission_admit.sql: the jobs' {@linkplain JobStore#columns columns}, then its other parameters. */
    private static List<Object[]> admitStatement(Sql sql, long window, Object[] columns, String queue, int k,
            int start, boolean each) {
        Object[] params = Arrays.copyOf(columns, columns.length + 4);
        params[columns.length] = queue;
        params[columns.length + 1] = k;
        params[columns.length + 2] = start;
        params[columns.length + 3] = each;
        return sql.query(ADMIT.text(window), params);
    }

    /**
     * The first window for {@code k} jobs: the smallest power of two that is at least {@code k} plus
     * {@link #WINDOW_SLACK}. Windows are written into the statement's text (ADR 0038), so they come in few sizes: a
     * window widened fourfold stays a power of two.
     */
    static long firstWindow(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("an admission takes at least one slot, not " + k);
        }
        return Long.highestOneBit((long) k + WINDOW_SLACK - 1) << 1;
    }

    /** A fresh {@link SlotCursor}, at a random slot, for each bounded queue of {@code bounds} (queue → max-pending). */
    public static Map<String, SlotCursor> cursors(Map<String, Integer> bounds) {
        Map<String, SlotCursor> cursors = new LinkedHashMap<>();
        bounds.forEach((queue, maxPending) -> cursors.put(queue, new SlotCursor(maxPending)));
        return cursors;
    }

    /**
     * Gives terminal job {@code jobId} of bounded queue {@code queue} a slot again, in the current transaction, for an
     * operator's retry (ADR 0021): the slot still pointing at it if there is one, else a free one, looked for as
     * {@link #admit} does (a window from the cursor on, widened fourfold while the queue has more). Never waits.
     * Returns a refusal ({@code requested} 1) when no slot is free or every free one is held by another transaction.
     */
    public static Result take(Sql sql, String queue, long jobId, SlotCursor cursor) {
        long window = firstWindow(1);
        long position = cursor.reserve(1);
        int start = cursor.slotAt(position);
        while (true) {
            Object[] row = sql.query(TAKE.text(window), jobId, queue, start).get(0);
            if (row[0] != null) {
                return new Result(List.of(new JobStore.Inserted(jobId, JobState.AVAILABLE, queue)), null, 0, 0);
            }
            long looked = Rows.longAt(row, 1);
            cursor.skip(position, looked);
            if (looked == window) {
                window = window * 4;
                continue;
            }
            return Result.refused(queue, 1, 0);
        }
    }

    /** Outstanding jobs holding a slot, per bounded queue; a queue with none is absent. */
    public static Map<String, Long> outstanding(Sql sql) {
        Map<String, Long> counts = new HashMap<>();
        for (Object[] row : sql.query(Queries.ADMISSION_OUTSTANDING)) {
            counts.put(Rows.stringAt(row, 0), Rows.longAt(row, 1));
        }
        return counts;
    }

    /** Jobs of {@code queue} that reached a terminal state within the last {@code windowMs}, counting at most {@code cap}. */
    public static long recentFinishes(Sql sql, String queue, long windowMs, int cap) {
        return Rows.longAt(sql.query(Queries.ADMISSION_RECENT_FINISHES, queue, windowMs, cap).get(0), 0);
    }

    /** What start-up reconciliation did to one queue's slots. */
    public record Reconciled(String queue, long slotsBefore, int slots, int adopted) {
        public boolean changed() {
            return slotsBefore != slots || adopted > 0;
        }
    }

    /**
     * Makes each bounded queue's slots match its {@code max-pending} (queue → bound): adds slots, or removes the
     * surplus (free ones first), and gives free slots to outstanding jobs that hold none, so turning the bound on for
     * a busy queue counts the work it already has. One transaction under an advisory lock: instances that start
     * together take turns. A queue already in order costs one read and takes no lock on its slots. Queues not in
     * {@code bounds} are left alone. When slots were added or removed, the table is then analysed (skipped if a
     * vacuum or another analysis holds it), so that the admission statement's plan knows it at once, as autovacuum
     * would tell it some time later (ADR 0037).
     */
    public static List<Reconciled> reconcile(DataSource dataSource, Map<String, Integer> bounds) throws SQLException {
        List<Reconciled> done = new ArrayList<>();
        if (bounds.isEmpty()) {
            return done;
        }
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                Sql sql = new ConnectionSql(c);
                sql.query(Queries.ADMISSION_RECONCILE_LOCK, RECONCILE_LOCK);
                for (Map.Entry<String, Integer> q : new LinkedHashMap<>(bounds).entrySet()) {
                    done.add(reconcile(sql, q.getKey(), q.getValue()));
                }
                c.commit();
            } catch (RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(autoCommit);
            }
            if (done.stream().anyMatch(r -> r.slots() != r.slotsBefore())) {
                analyse(c);
            }
            return done;
        }
    }

    /** Runs {@code ANALYZE} on the slots, in auto-commit so that its statistics are kept whatever the connection was. */
    private static void analyse(Connection c) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(true);
        try {
            new ConnectionSql(c).update(Queries.ADMISSION_SLOT_ANALYZE);
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private static Reconciled reconcile(Sql sql, String queue, int maxPending) {
        Object[] status = sql.query(Queries.ADMISSION_SLOT_STATUS, queue).get(0);
        long before = Rows.longAt(status, 0);
        boolean orphans = Boolean.TRUE.equals(status[1]);
        if (before == maxPending && !orphans) {
            return new Reconciled(queue, before, maxPending, 0);
        }
        sql.query(Queries.ADMISSION_SLOT_LOCK, queue);
        if (before < maxPending) {
            sql.update(Queries.ADMISSION_SLOT_GROW, queue, maxPending);
        } else if (before > maxPending) {
            sql.update(Queries.ADMISSION_SLOT_SHRINK, queue, maxPending);
        }
        int adopted = orphans ? Rows.intAt(sql.query(Queries.ADMISSION_SLOT_ADOPT, queue).get(0), 0) : 0;
        return new Reconciled(queue, before, maxPending, adopted);
    }
}
