package dev.weir.concurrency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WeightedCapacityTest {

    private final OverflowAllocator pool = new OverflowAllocator(3, weights());
    private final WeightedCapacity a = new WeightedCapacity("a", 2, pool);

    private static Map<String, Integer> weights() {
        Map<String, Integer> w = new LinkedHashMap<>();
        w.put("a", 2);
        w.put("b", 1);
        return w;
    }

    private static List<Permit.Source> sources(List<Permit> permits) {
        return permits.stream().map(Permit::source).toList();
    }

    @Test
    void localPermitsFirstThenOverflow() {
        List<Permit> permits = a.tryAcquire(4);

        assertEquals(List.of(Permit.Source.LOCAL, Permit.Source.LOCAL, Permit.Source.OVERFLOW, Permit.Source.OVERFLOW),
                sources(permits));
        assertTrue(permits.stream().allMatch(p -> p.queue().equals("a")));
        assertEquals(2, pool.held("a"));
        assertEquals(2, pool.demand("a"), "demand is the part local permits did not cover");
        assertEquals(1, pool.free());
    }

    @Test
    void aQueueItsMinimumSatisfiesDoesNotAskThePool() {
        assertEquals(List.of(Permit.Source.LOCAL), sources(a.tryAcquire(1)));
        assertEquals(0, pool.demand("a"));
        assertEquals(0, pool.held("a"));
        assertEquals(3, pool.free());
    }

    @Test
    void overflowIsSharedWithOtherQueues() {
        WeightedCapacity b = new WeightedCapacity("b", 0, pool);
        assertEquals(List.of(Permit.Source.OVERFLOW), sources(b.tryAcquire(1))); // b alone: share 3
        // a contends with b now: a's share is ceil(3 × 2 / 3) = 2.
        assertEquals(4, a.tryAcquire(10).size());
        assertEquals(2, pool.held("a"));
        assertEquals(0, pool.free());
        assertEquals(List.of(), b.tryAcquire(5));
    }

    @Test
    void eachPermitGoesBackToWhereItCameFromExactlyOnce() {
        AtomicInteger released = new AtomicInteger();
        a.onRelease(released::incrementAndGet);
        List<Permit> permits = a.tryAcquire(3); // LOCAL, LOCAL, OVERFLOW
        Permit local = permits.get(0);
        Permit overflow = permits.get(2);

        assertTrue(overflow.release());
        assertEquals(0, pool.held("a"));
        assertEquals(3, pool.free());
        assertEquals(2, a.inFlight());

        assertFalse(overflow.release(), "a second release does nothing");
        assertEquals(0, pool.held("a"));
        assertEquals(3, pool.free());

        assertTrue(local.release());
        assertFalse(local.release());
        assertEquals(1, a.inFlight());
        assertEquals(3, pool.free(), "a local permit never reaches the pool");
        assertEquals(2, released.get(), "one notification per permit given back");

        // The local permit is free again, so it is taken before any overflow.
        assertEquals(List.of(Permit.Source.LOCAL), sources(a.tryAcquire(1)));
    }

    @Test
    void aQueueRenewsItsLocalPermitsAndTheOverflowWithinItsShare() {
        List<Permit> held = a.tryAcquire(5); // 2 local + 3 overflow: a is alone, its share is the whole pool
        assertEquals(held, a.renewable(held), "alone, a may keep everything");

        WeightedCapacity b = new WeightedCapacity("b", 0, pool);
        assertEquals(List.of(), b.tryAcquire(2), "nothing free; b now contends");
        // a's share is now ceil(3 × 2 / 3) = 2: of its 3 overflow permits it may renew 2, and every local one.
        List<Permit> renewable = a.renewable(held);
        assertEquals(List.of(Permit.Source.LOCAL, Permit.Source.LOCAL, Permit.Source.OVERFLOW, Permit.Source.OVERFLOW),
                sources(renewable));
        // Renewing one overflow permit while keeping the other two is already over the share.
        assertEquals(List.of(), a.renewable(held.subList(4, 5)));
        assertEquals(3, pool.held("a"), "asking changes nothing");
    }

    @Test
    void reportCountsLocalAndOverflow() {
        assertEquals(new CapacityReport.Weighted(2, 2, 0, 0), a.report());
        List<Permit> permits = a.tryAcquire(5); // 2 local + 3 overflow: a is alone
        assertEquals(new CapacityReport.Weighted(2, 2, 3, 5), a.report());
        assertEquals(5, a.inFlight());
        permits.forEach(Permit::release);
        assertEquals(new CapacityReport.Weighted(2, 2, 0, 0), a.report());
    }

    @Test
    void clearDemandForwardsToThePool() {
        a.tryAcquire(4);
        assertEquals(2, pool.demand("a"));
        a.clearDemand();
        assertEquals(0, pool.demand("a"));
    }

    @Test
    void anOverflowPermitComingBackWakesStarvedQueues() {
        WeightedCapacity b = new WeightedCapacity("b", 0, pool);
        List<Set<String>> woken = new ArrayList<>();
        pool.onCapacityFreed(woken::add);
        List<Permit> permits = a.tryAcquire(5); // a alone: all 3 overflow permits
        assertEquals(List.of(), b.tryAcquire(1)); // b starved
        permits.get(4).release();
        assertEquals(List.of(Set.of("b")), woken);
        assertEquals(1, b.tryAcquire(1).size());
    }

    @Test
    void refusesBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> new WeightedCapacity("nope", 1, pool));
        assertThrows(IllegalArgumentException.class, () -> new WeightedCapacity("b", -1, pool));
        assertThrows(IllegalArgumentException.class, () -> a.tryAcquire(-1));
        assertEquals(List.of(), a.tryAcquire(0));
    }
}
