package dev.weir.bench;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The heap's size and use out of {@code jcmd <pid> GC.heap_info}. G1 prints the whole heap on one line; the
 * generational collectors (Parallel, Serial) print one line per generation, and the heap is their sum. Each such line
 * reads {@code total <n>K, used <n>K}; the lines below them (regions, eden, spaces) and Metaspace's do not.
 */
final class HeapInfo {

    private static final Pattern PART = Pattern.compile("total (\\d+)K, used (\\d+)K");

    private HeapInfo() {
    }

    /** {committed, used} in MB, summed over the parts jcmd names; fails when it names none. */
    static double[] committedAndUsedMb(String heapInfo) {
        Matcher m = PART.matcher(heapInfo);
        long committed = 0;
        long used = 0;
        boolean any = false;
        while (m.find()) {
            committed += Long.parseLong(m.group(1));
            used += Long.parseLong(m.group(2));
            any = true;
        }
        if (!any) {
            throw new IllegalStateException("no heap figures in jcmd's answer:\n" + heapInfo);
        }
        return new double[] {committed / 1024.0, used / 1024.0};
    }
}
