package dev.weir.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Weir's SQL, one statement per file under {@code dev/weir/store/sql/}, read once at class initialisation. */
final class Queries {

    static final String JOB_INSERT = load("job_insert");
    static final String JOB_INSERT_UNIFORM = load("job_insert_uniform");
    static final String JOB_INSERT_UNIQUE = load("job_insert_unique");
    static final String JOB_ANNOUNCE = load("job_announce");
    static final String JOB_ANY_AVAILABLE = load("job_any_available");
    static final String JOB_TURN = load("job_turn");
    static final String JOB_PROMOTE_DUE = load("job_promote_due");
    static final String JOB_DELETE_FINISHED = load("job_delete_finished");
    static final String JOB_AGE = load("job_age");
    static final String JOB_PROGRESS = load("job_progress");
    static final String PERIODIC_REGISTER = load("periodic_register");
    static final String PERIODIC_DUE = load("periodic_due");
    static final String PERIODIC_FIRE = load("periodic_fire");
    static final String PERIODIC_LIST = load("periodic_list");
    static final String PERIODIC_SET_PAUSED = load("periodic_set_paused");
    static final String PERIODIC_RUN_NOW = load("periodic_run_now");
    static final String JOB_RESCUE = load("job_rescue");
    static final String JOB_GET = load("job_get");
    static final String JOB_LIST = load("job_list");
    static final String JOB_LOCK = load("job_lock");
    static final String JOB_RETRY = load("job_retry");
    static final String JOB_DISCARDED_BATCH = load("job_discarded_batch");
    static final String JOB_CANCEL_NOW = load("job_cancel_now");
    static final String JOB_CANCEL_REQUEST = load("job_cancel_request");
    static final String JOB_CANCEL_REQUESTED = load("job_cancel_requested");
    static final String JOB_DISCARD_NOW = load("job_discard_now");
    static final String STATS_THROUGHPUT = load("stats_throughput");
    static final String ADMISSION_TAKE = load("admission_take");
    static final String QUEUE_COUNTS = load("queue_counts");
    static final String QUEUE_AVAILABLE = load("queue_available");
    static final String QUEUE_PAUSED = load("queue_paused");
    static final String QUEUE_SET_PAUSED = load("queue_set_paused");
    static final String INSTANCE_HEARTBEAT = load("instance_heartbeat");
    static final String INSTANCE_HELLO = load("instance_hello");
    static final String INSTANCE_DELETE = load("instance_delete");
    static final String DATABASE_PROBE = load("database_probe");
    static final String TABLE_STATS = load("table_stats");
    static final String ADMISSION_ADMIT = load("admission_admit");
    static final String ADMISSION_OUTSTANDING = load("admission_outstanding");
    static final String ADMISSION_RECENT_FINISHES = load("admission_recent_finishes");
    static final String ADMISSION_SAVEPOINT = load("admission_savepoint");
    static final String ADMISSION_ROLLBACK_TO_SAVEPOINT = load("admission_rollback_to_savepoint");
    static final String ADMISSION_RELEASE_SAVEPOINT = load("admission_release_savepoint");
    static final String ADMISSION_RECONCILE_LOCK = load("admission_reconcile_lock");
    static final String ADMISSION_SLOT_STATUS = load("admission_slot_status");
    static final String ADMISSION_SLOT_LOCK = load("admission_slot_lock");
    static final String ADMISSION_SLOT_GROW = load("admission_slot_grow");
    static final String ADMISSION_SLOT_SHRINK = load("admission_slot_shrink");
    static final String ADMISSION_SLOT_ADOPT = load("admission_slot_adopt");
    static final String ADMISSION_SLOT_ANALYZE = load("admission_slot_analyze");

    private Queries() {
    }

    private static String load(String name) {
        String path = "sql/" + name + ".sql";
        try (InputStream in = Queries.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing SQL resource dev/weir/store/" + path);
            }
            StringBuilder sql = new StringBuilder();
            // Keep the statement as written, minus its comment lines (they document the file, not the query).
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.strip().startsWith("--")) {
                    sql.append(line).append('\n');
                }
            }
            return sql.toString().strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
