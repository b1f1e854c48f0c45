package dev.weir.concurrency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HardReservedCapacityTest {

    @Test
    void grantsUpToWhatIsFreeAndNeverMore() {
        HardReservedCapacity c = new HardReservedCapacity("q", 5);
        List<Permit> first = c.tryAcquire(3);
        assertEquals(3, first.size());
        assertEquals(2, c.tryAcquire(10).size());
        assertEquals(0, c.tryAcquire(1).size());
        assertEquals(5, c.inFlight());
        assertEquals(new CapacityReport.HardReserved(5, 5), c.report());
        assertTrue(first.stream().allMatch(p -> p.source() == Permit.Source.HARD_RESERVED && p.queue().equals("q")));
    }

    @Test
    void aPermitComesBackExactlyOnce() {
        HardReservedCapacity c = new HardReservedCapacity("q", 2);
        AtomicInteger released = new AtomicInteger();
        c.onRelease(released::incrementAndGet);
        Permit p = c.tryAcquire(1).get(0);
        assertTrue(p.release());
        assertFalse(p.release(), "a second release does nothing");
        assertTrue(p.isReleased());
        assertEquals(1, released.get());
        assertEquals(0, c.inFlight());
        assertEquals(2, c.tryAcquire(5).size(), "capacity did not grow from the double release");
    }

    @Test
    void aHandedOverPermitCarriesTheDutyToGiveBackExactlyOnce() {
        HardReservedCapacity c = new HardReservedCapacity("q", 2);
        AtomicInteger released = new AtomicInteger();
        c.onRelease(released::incrementAndGet);
        List<Permit> held = c.tryAcquire(2);
        assertSame(held, c.renewable(held), "a queue keeps all its hard-reserved permits");

        Permit next = held.get(0).handOver();
        assertTrue(held.get(0).isReleased(), "the old permit is spent");
        assertFalse(held.get(0).release(), "releasing a handed-over permit gives nothing back");
        assertThrows(IllegalStateException.class, () -> held.get(0).handOver());
        assertEquals(0, released.get());
        assertEquals(2, c.inFlight(), "the next job holds it now");

        assertEquals(Permit.Source.HARD_RESERVED, next.source());
        assertTrue(next.release());
        assertFalse(next.release());
        assertEquals(1, released.get());
        assertEquals(1, c.inFlight());
    }

    @Test
    void racingReleasesGiveBackOnce() throws InterruptedException {
        HardReservedCapacity c = new HardReservedCapacity("q", 1);
        for (int round = 0; round < 200; round++) {
            Permit p = c.tryAcquire(1).get(0);
            CountDownLatch go = new CountDownLatch(1);
            AtomicInteger wins = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Thread th = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (p.release()) {
                        wins.incrementAndGet();
                    }
                });
                th.start();
                threads.add(th);
            }
            go.countDown();
            for (Thread th : threads) {
                th.join();
            }
            assertEquals(1, wins.get());
            assertEquals(0, c.inFlight());
        }
    }
}
