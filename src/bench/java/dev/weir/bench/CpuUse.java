package dev.weir.bench;

import java.time.Duration;
import java.util.LongSummaryStatistics;
import java.util.Optional;

/**
 * Where a drain's processor time went: the CPU time the server's JVM and the machine's PostgreSQL processes used
 * between two readings, as the operating system counts it ({@link ProcessHandle.Info#totalCpuDuration()}). The
 * database is counted only when the harness reaches it on this machine (a loopback address or {@code localhost}),
 * and then it is every process named {@code postgres} here; a database elsewhere, or a platform that does not tell a
 * process's CPU time, gives no figure rather than a wrong one.
 *
 * <p>Backends that end between the two readings take their time with them; the server keeps its pooled connections
 * for the whole run, so that loses only the harness's own short sessions.
 */
final class CpuUse {

    /** One reading: CPU nanoseconds so far of the server and of the database; negative where unknown. */
    record Reading(long serverNanos, long databaseNanos) {
    }

    private final long serverPid;
    private final boolean databaseHere;

    CpuUse(long serverPid, String databaseHost) {
        this.serverPid = serverPid;
        this.databaseHere = databaseHost.equals("localhost") || databaseHost.startsWith("127.")
                || databaseHost.equals("::1");
    }

    Reading read() {
        long server = ProcessHandle.of(serverPid).flatMap(p -> p.info().totalCpuDuration())
                .map(Duration::toNanos).orElse(-1L);
        if (!databaseHere) {
            return new Reading(server, -1);
        }
        LongSummaryStatistics database = ProcessHandle.allProcesses()
                .map(ProcessHandle::info)
                .filter(info -> isPostgres(info.command()))
                .flatMap(info -> info.totalCpuDuration().stream())
                .mapToLong(Duration::toNanos)
                .summaryStatistics();
        return new Reading(server, database.getCount() == 0 ? -1 : database.getSum());
    }

    private static boolean isPostgres(Optional<String> command) {
        return command.map(c -> c.endsWith("/postgres") || c.equals("postgres")).orElse(false);
    }

    /** Seconds of CPU between two readings, or NaN where either did not know. */
    static double seconds(long before, long after) {
        return before < 0 || after < 0 ? Double.NaN : (after - before) / 1e9;
    }

    /**
     * CPU milliseconds per 1000 jobs out of CPU seconds: NaN where the seconds are unknown, infinite when there were no
     * jobs and some CPU.
     */
    static double msPer1000(double cpuSeconds, long jobs) {
        return cpuSeconds * 1e6 / jobs;
    }
}
