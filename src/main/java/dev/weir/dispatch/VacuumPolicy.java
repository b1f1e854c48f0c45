package dev.weir.dispatch;

import dev.weir.store.JobStore.TableStats;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * When the maintenance leader vacuums one of Weir's tables (ADR 0027). Pure: it is told the tables' statistics and
 * the outcome of each vacuum, with times on the {@link System#nanoTime()} scale, and answers which table is due.
 *
 * <p>A table is due when
 * <ul>
 * <li>no vacuum of it is under way,</li>
 * <li>at least its interval has passed since its last vacuum, by anyone (this leader, autovacuum or an operator),
 * and</li>
 * <li>at least {@code deadRows} rows died in it since then: its dead rows now, less those its last vacuum left
 * (rows an old transaction still sees cannot be removed, and would otherwise make it due again at once); or at
 * least {@code deadRows} rows were inserted since then, and at least a fifth as many as it held before them
 * (a table that only grows: a vacuum brings its size in {@code pg_class} up to date, and so makes every session
 * plan its statements again; ADR 0027, amendment "a table that only grows").</li>
 * </ul>
 * The interval is {@code minInterval} while vacuums work. A vacuum that removed less than half of the dead rows it
 * was started for (an old transaction or replication slot holds them), or that did not run at all (the table was
 * locked, or this role may not vacuum it), doubles the table's interval, up to {@link #MAX_INTERVAL}; the next one
 * that works brings it back. A vacuum of a table due for its inserted rows works when it runs. Of several due tables,
 * the one with the most new dead or inserted rows goes first.
 */
final class VacuumPolicy {

    static final Duration MAX_INTERVAL = Duration.ofMinutes(5);

    private final long deadRows;
    private final long minInterval;
    private final long maxInterval;
    private final Map<String, Table> tables = new HashMap<>();

    /** What is known of one table since this leader first saw it. */
    private static final class Table {
        long vacuums;
        long lastVacuum;
        long leftDead;
        long interval;
    }

    VacuumPolicy(long deadRows, Duration minInterval) {
        if (deadRows < 1 || minInterval.isNegative() || minInterval.isZero()) {
            throw new IllegalArgumentException("deadRows must be ≥ 1 and minInterval > 0");
        }
        this.deadRows = deadRows;
        this.minInterval = minInterval.toNanos();
        this.maxInterval = Math.max(this.minInterval, MAX_INTERVAL.toNanos());
    }

    /** The table to vacuum now, if any, given every table's statistics read at {@code now}. */
    Optional<String> due(List<TableStats> stats, long now) {
        String best = null;
        long bestNew = 0;
        for (TableStats s : stats) {
            Table t = tables.get(s.table());
            if (t == null) {
                // First sight: nothing is known of its last vacuum, so its dead rows all count.
                t = new Table();
                t.vacuums = s.vacuums();
                t.lastVacuum = now - minInterval;
                t.interval = minInterval;
                tables.put(s.table(), t);
            } else if (s.vacuums() != t.vacuums) {
                // Someone else vacuumed it since the last look (a tick ago): what is dead now is about what it left.
                t.vacuums = s.vacuums();
                t.lastVacuum = now;
                t.leftDead = s.deadRows();
                t.interval = minInterval;
            }
            long newRows = Math.max(newDead(s, t), grown(s));
            if (!s.running() && now - t.lastVacuum >= t.interval && newRows >= deadRows && newRows > bestNew) {
                best = s.table();
                bestNew = newRows;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * Records this leader's vacuum of {@code after.table()}, begun with the statistics {@code before}; {@code after}
     * was read when it ended, at {@code now}. Answers whether it worked: it ran and, unless the table was due for
     * its inserted rows, removed at least half of the dead ones.
     */
    boolean vacuumed(TableStats before, TableStats after, long now) {
        Table t = tables.computeIfAbsent(after.table(), name -> new Table());
        boolean ran = after.vacuums() > before.vacuums();
        boolean forInserts = grown(before) >= deadRows;
        boolean worked = ran && (forInserts || after.deadRows() * 2 <= before.deadRows());
        t.vacuums = after.vacuums();
        t.lastVacuum = now;
        t.leftDead = ran ? after.deadRows() : t.leftDead;
        t.interval = worked ? minInterval : Math.min(maxInterval, Math.max(minInterval, t.interval) * 2);
        return worked;
    }

    /** Rows that died in the table since its last vacuum, as far as this policy knows. */
    private static long newDead(TableStats s, Table t) {
        return s.deadRows() - t.leftDead;
    }

    /**
     * Rows inserted since the table's last vacuum, when they are at least a fifth of what it held before them;
     * otherwise 0. The fifth is autovacuum's own default share for inserts: a table that keeps growing is vacuumed a
     * number of times that grows with the logarithm of its size, not with it.
     */
    private static long grown(TableStats s) {
        long before = Math.max(0, s.liveRows() - s.inserted());
        return s.inserted() * 5 >= before ? s.inserted() : 0;
    }

    /** The wait before the table may be vacuumed again: {@code minInterval}, or longer after vacuums that failed. */
    Duration interval(String table) {
        Table t = tables.get(table);
        return Duration.ofNanos(t == null ? minInterval : t.interval);
    }
}
