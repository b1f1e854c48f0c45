package dev.weir.metrics;

import java.util.logging.Logger;

/**
 * Writes the job lifecycle lines ({@link JobLogLine}) through {@code java.util.logging}, on the logger
 * {@code weir.job}, each at its event's level. Callers on a hot path check {@link #enabled} first, so that a
 * disabled {@code FINE} event builds nothing.
 */
public final class JobLog {

    private static final Logger LOG = Logger.getLogger(JobLogLine.PREFIX);

    private JobLog() {
    }

    public static boolean enabled(JobEvent event) {
        return LOG.isLoggable(event.level());
    }

    /** Logs one line if its event's level is enabled; {@code more} as in {@link JobLogLine#format}. */
    public static void log(JobEvent event, String queue, String kind, long id, int attempt, String... more) {
        if (LOG.isLoggable(event.level())) {
            LOG.log(event.level(), JobLogLine.format(event, queue, kind, id, attempt, more));
        }
    }
}
