package dev.weir.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class HeapInfoTest {

    @Test
    void g1NamesTheWholeHeapOnOneLine() {
        String info = """
                 garbage-first heap   total 262144K, used 61440K [0x00000006c0000000, 0x0000000800000000)
                  region size 1024K, 2 young (2048K), 0 survivors (0K)
                 Metaspace       used 98600K, committed 101440K, reserved 1138688K
                  class space    used 11000K, committed 12000K, reserved 1048576K
                """;
        assertArrayEquals(new double[] {256.0, 60.0}, HeapInfo.committedAndUsedMb(info));
    }

    @Test
    void theParallelCollectorsGenerationsAreAddedUp() {
        // Read only the young generation, the heap after a full GC looked almost empty.
        String info = """
                 PSYoungGen      total 76800K, used 1024K [0x00000007d5580000, 0x00000007da600000, 0x0000000800000000)
                  eden space 66048K, 1% used [0x00000007d5580000,0x00000007d5680000,0x00000007d9600000)
                  from space 10752K, 0% used [0x00000007d9b80000,0x00000007d9b80000,0x00000007da600000)
                  to   space 10752K, 0% used [0x00000007d9600000,0x00000007d9600000,0x00000007da080000)
                 ParOldGen       total 175104K, used 60416K [0x0000000680000000, 0x000000068ab00000, 0x00000007d5580000)
                  object space 175104K, 34% used [0x0000000680000000,0x0000000683b00000,0x000000068ab00000)
                 Metaspace       used 98455K, committed 101248K, reserved 1138688K
                """;
        assertArrayEquals(new double[] {246.0, 60.0}, HeapInfo.committedAndUsedMb(info));
    }

    @Test
    void anAnswerWithoutHeapFiguresFails() {
        assertThrows(IllegalStateException.class, () -> HeapInfo.committedAndUsedMb("12345:\nCommand executed"));
    }
}
