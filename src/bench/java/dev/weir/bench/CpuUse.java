package dev.weir.bench;

import java.time.Duration;
import java.util.Optional;

/**
 * Where a drain's processor time went: the CPU time the server's JVM and the machine's PostgreSQL processes used
 * between two readings, as the operating system counts it ({@link ProcessHandle.Info#totalCpuDuration()}). The
 * benchmark runs beside the database it measures, so "the database" is every process named {@code postgres} on
 * this machine; a reading that cannot see a process (another machine's database, a platform that does not tell)
 * gives no figure for it rather than a wrong one.
 *
 * <p>Backends that end between the two readings take their time with them; the server keeps its pooled connections
 * for the whole run, so that loses only the harness's own short sessions.
 */
final class CpuUse {

    /** One reading: CPU nanoseconds so far of the server and of the database; negative where unknown. */
    record Reading(long serverNanos, long databaseNanos) {
    }

    private final long serverPid;

    CpuUse(long serverPid) {
        this.serverPid = serverPid;
    }

    Reading read() {
        long server = ProcessHandle.of(serverPid).flatMap(p -> p.info().totalCpuDuration())
                .map(Duration::toNanos).orElse(-1L);
        long[] database = {0, 0};
        ProcessHandle.allProcesses().forEach(p -> {
            ProcessHandle.Info info = p.info();
            if (isPostgres(info.command())) {
                Optional<Duration> cpu = info.totalCpuDuration();
                if (cpu.isPresent()) {
                    database[0] += cpu.get().toNanos();
                    database[1]++;
                }
            }
        });
        return new Reading(server, database[1] == 0 ? -1 : database[0]);
    }

    private static boolean isPostgres(Optional<String> command) {
        return command.map(c -> c.endsWith("/postgres") || c.equals("postgres")).orElse(false);
    }

    /** Seconds of CPU between two readings, or NaN where either did not know. */
    static double seconds(long before, long after) {
        return before < 0 || after < 0 ? Double.NaN : (after - before) / 1e9;
    }
}
