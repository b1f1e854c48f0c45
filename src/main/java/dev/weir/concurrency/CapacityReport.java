package dev.weir.concurrency;

/** A queue's capacity as operators see it: one variant per concurrency mode. */
public sealed interface CapacityReport {

    int inFlight();

    /** Hard-reserved mode: the queue owns {@code maxWorkers} permits. */
    record HardReserved(int maxWorkers, int inFlight) implements CapacityReport {
    }

    /** Weighted mode: {@code minWorkers} guaranteed permits plus {@code overflowHeld} lent by the pool. */
    record Weighted(int minWorkers, int weight, int overflowHeld, int inFlight) implements CapacityReport {
    }
}
