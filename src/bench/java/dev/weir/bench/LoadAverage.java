package dev.weir.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's load average, reported beside the figures: a benchmark on a busy machine measures the machine too.
 */
final class LoadAverage {

    private LoadAverage() {
    }

    /** "1-, 5- and 15-minute" load averages where the system publishes them, else the 1-minute one. */
    static String now() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return String.format(java.util.Locale.ROOT, "%.2f",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }
}
