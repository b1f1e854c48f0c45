package dev.weir.concurrency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.concurrency.FairShare.Standing;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class FairShareTest {

    @ParameterizedTest(name = "ceil({0} × {1} / {2}) = {3}")
    @CsvSource({
            "10, 1, 3, 4", // three equal queues over 10: rounded up, so shares add up to 12
            "12, 1, 4, 3",
            "12, 3, 4, 9",
            "10, 1, 1, 10", // alone: the whole pool
            "0, 1, 2, 0",
            "2147483647, 1000, 1000, 2147483647", // capacity × weight would overflow an int
    })
    void fairShareIsTheCeilingOfTheWeightedPart(int capacity, int weight, long contendingWeight, int expected) {
        assertEquals(expected, FairShare.fairShare(capacity, weight, contendingWeight));
    }

    /**
     * One request against a snapshot. Standings are written {@code queue=weight:held:demand}; the requester's
     * own demand is replaced by what it asks for.
     */
    static Stream<Arguments> snapshots() {
        return Stream.of(
                row("10 over 1/1/1, all asking: the first gets its share of 4",
                        10, "a=1:0:0 b=1:0:5 c=1:0:5", "a", 10, 4),
                row("10 over 1/1/1: the second gets 4 too",
                        10, "a=1:4:10 b=1:0:5 c=1:0:5", "b", 10, 4),
                row("10 over 1/1/1: the third gets only the 2 left, so no more than 10 are held",
                        10, "a=1:4:10 b=1:4:10 c=1:0:0", "c", 10, 2),
                row("a single contender gets the whole pool",
                        10, "a=1:0:0 b=1:0:0 c=1:0:0", "a", 10, 10),
                row("a single contender gets no more than the pool",
                        10, "a=1:0:0 b=1:0:0", "a", 50, 10),
                row("a single contender's weight does not matter",
                        10, "a=1:0:0 b=7:0:0", "a", 10, 10),
                row("a newcomer gets min(free, share) while the incumbent holds more than its share",
                        10, "a=1:8:8 b=1:0:0", "b", 5, 2),
                row("a newcomer gets nothing while the pool is full",
                        10, "a=1:10:10 b=1:0:0", "b", 5, 0),
                row("an incumbent above its share gets nothing more, even with permits free",
                        10, "a=1:8:8 b=1:0:5", "a", 3, 0),
                row("an incumbent drained below its share gets back up to it",
                        10, "a=1:4:8 b=1:2:5", "a", 3, 1),
                row("weights 1 and 3 over 12: the light queue gets 3",
                        12, "a=1:0:0 b=3:0:5", "a", 12, 3),
                row("weights 1 and 3 over 12: the heavy queue gets 9",
                        12, "a=1:3:12 b=3:0:5", "b", 12, 9),
                row("an idle queue (no demand, nothing held) does not count",
                        10, "a=1:0:0 b=1:0:0", "a", 10, 10),
                row("a queue that still asks counts",
                        10, "a=1:0:0 b=1:0:3", "a", 10, 5),
                row("a queue with no demand that still holds permits counts",
                        10, "a=1:0:0 b=1:3:0", "a", 10, 5),
                row("a request of 0 is granted 0",
                        10, "a=1:0:0", "a", 0, 0),
                row("an empty pool grants nothing",
                        0, "a=1:0:0", "a", 5, 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("snapshots")
    void grantIsMinOfWantedFreeAndHeadroom(String why, int capacity, Map<String, Standing> standings, String queue,
            int wanted, int expected) {
        int granted = FairShare.grant(capacity, standings, queue, wanted);
        assertEquals(expected, granted, why);
        int totalHeld = standings.values().stream().mapToInt(Standing::held).sum();
        assertTrue(totalHeld + granted <= capacity, "never more than the pool is held");
    }

    /**
     * The same arithmetic through time, on {@link OverflowAllocator}. Steps: {@code a+5=3} queue a asks for 5 and
     * is granted 3; {@code a-2} a gives back 2; {@code a!} a clears its demand; {@code a~4=2} of 4 permits of
     * finished jobs, a may renew 2 (renewal changes nothing by itself: the other 2 are given back by a later step);
     * {@code @} {@link OverflowAllocator#ROTATION} passes (the pool's clock stands still otherwise).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "10 over 1/1/1: shares of 4, and 10 held in all | 10 | a:1 b:1 c:1 | "
                    + "a+1=1 b+1=1 c+1=1 a+10=3 b+10=3 c+10=1 c+1=0",
            "a single contender gets everything | 10 | a:1 b:1 | a+10=10 a+1=0",
            "a newcomer gets min(free, share); the incumbent gets nothing until it drains below its share | 10 | "
                    + "a:1 b:1 | a+10=10 b+5=0 a-2 b+5=2 a+5=0 a-4 b+5=3 a+5=1",
            "weights 1 and 3 over 12 split 3 and 9 | 12 | a:1 b:3 | a+1=1 b+1=1 a+12=2 b+12=8",
            "a queue that cleared its demand and holds nothing stops counting | 10 | a:1 b:1 | "
                    + "a+1=1 b+1=1 b-1 b! a+10=9",
            "without the clear it still counts | 10 | a:1 b:1 | a+1=1 b+1=1 b-1 a+10=4",
            "a request of 0 clears demand | 10 | a:1 b:1 | a+1=1 b+1=1 b-1 b+0=0 a+10=9",
            "holding without demand still counts | 10 | a:1 b:1 | a+1=1 b+3=3 b! a+10=4",
            "alone, a queue renews everything | 10 | a:1 b:1 | a+10=10 a~10=10 a~3=3",
            "an incumbent above its share renews only down to it | 10 | a:1 b:1 | a+10=10 b+5=0 a~4=0 a~6=1",
            "11 over weights 1 and 3: shares 3 and 9 do not both fit, so the remainder goes to whoever waits, once the "
                    + "queue that has it has had it for the rotation period | 11 | a:1 b:3 | "
                    + "a+3=3 b+11=8 a~3=3 @ a~3=2 a-1 b+11=1 a~2=2 a+1=0 b~9=9 @ b~9=8 b-1 a+1=1",
            "a queue below its share rounded down gets the remainder at once | 10 | a:1 b:1 c:1 d:1 | "
                    + "a+3=3 b+3=3 c+3=3 d+3=1 a~3=2 b~3=2",
            "a grant starts the period again | 11 | a:1 b:3 | a+3=3 b+11=8 @ a-1 a+1=1 a~3=3 @ a~3=2",
    })
    void scenarios(String why, int capacity, String weights, String steps) {
        Map<String, Integer> w = new LinkedHashMap<>();
        for (String entry : weights.trim().split("\\s+")) {
            String[] kv = entry.split(":");
            w.put(kv[0], Integer.parseInt(kv[1]));
        }
        long[] now = {0};
        OverflowAllocator pool = new OverflowAllocator(capacity, w, () -> now[0]);
        Pattern step = Pattern.compile("([a-z]+)([+!~-])(\\d*)(?:=(\\d+))?");
        for (String s : steps.trim().split("\\s+")) {
            if (s.equals("@")) {
                now[0] += OverflowAllocator.ROTATION.toNanos();
                continue;
            }
            Matcher m = step.matcher(s);
            assertTrue(m.matches(), "bad step " + s);
            String q = m.group(1);
            switch (m.group(2)) {
                case "+" -> assertEquals(Integer.parseInt(m.group(4)), pool.tryAcquire(q, Integer.parseInt(m.group(3))),
                        why + ": step " + s);
                case "-" -> pool.release(q, Integer.parseInt(m.group(3)));
                case "~" -> assertEquals(Integer.parseInt(m.group(4)), pool.renewable(q, Integer.parseInt(m.group(3))),
                        why + ": step " + s);
                default -> pool.clearDemand(q);
            }
            assertTrue(pool.free() >= 0 && pool.free() <= capacity, why + ": free out of range after " + s);
        }
    }

    @Test
    void renewingMoreThanIsHeldIsRefused() {
        Map<String, Standing> standings = Map.of("a", new Standing(1, 2, 2));
        assertThrows(IllegalArgumentException.class, () -> FairShare.renewable(10, standings, "a", 3, false));
        assertThrows(IllegalArgumentException.class, () -> FairShare.renewable(10, standings, "a", -1, false));
        assertEquals(2, FairShare.renewable(10, standings, "a", 2, false));
    }

    @Test
    void unknownQueueIsRefused() {
        Map<String, Standing> standings = Map.of("a", new Standing(1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> FairShare.grant(10, standings, "zz", 1));
    }

    private static Arguments row(String why, int capacity, String standings, String queue, int wanted, int expected) {
        Map<String, Standing> parsed = new LinkedHashMap<>();
        for (String entry : standings.trim().split("\\s+")) {
            String[] kv = entry.split("=");
            String[] n = kv[1].split(":");
            parsed.put(kv[0], new Standing(Integer.parseInt(n[0]), Integer.parseInt(n[1]), Integer.parseInt(n[2])));
        }
        return Arguments.of(why, capacity, parsed, queue, wanted, expected);
    }
}
