package dev.weir.store;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where one instance's submitters start looking for free admission slots of one bounded queue (ADR 0011, amendment
 * "a cursor instead of a random start"). The slots form a ring numbered 1 to {@code slots}; the cursor walks round it.
 * Each admission reserves as many slots as it has jobs and starts at the cursor, which moves on by as many, so
 * concurrent admissions of one instance start at different places. When an admission found fewer free slots than it
 * wanted where it looked, the cursor jumps past what it looked at.
 *
 * <p>Jobs tend to end in about the order they were admitted, so the slots just ahead of the cursor are the ones taken
 * longest ago, and most likely free again: an admission finds its slots among the first it reads, however full the
 * queue is. A random start finds them in proportion to the free share of the queue: at 85 % full it read about seven
 * slots per job, and a group's statement ran short of room and sent some submissions on alone.
 *
 * <p>Only a hint: which slot a submission takes is decided in the database, under row locks, so any start is correct.
 * Thread-safe.
 */
public final class SlotCursor {

    private final int slots;
    /** The next position to hand out; grows without wrapping, mapped onto the ring by {@link #slotAt}. */
    private final AtomicLong next;

    /** A cursor over {@code slots} slots starting at a random one, so that instances start apart. */
    public SlotCursor(int slots) {
        this(slots, ThreadLocalRandom.current().nextInt(Math.max(1, slots)));
    }

    /** A cursor over {@code slots} slots whose first look starts at position {@code first} (slot {@code first + 1}). */
    public SlotCursor(int slots, long first) {
        if (slots < 1) {
            throw new IllegalArgumentException("a bounded queue has at least one slot, not " + slots);
        }
        this.slots = slots;
        this.next = new AtomicLong(first);
    }

    /**
     * Reserves {@code k} slots' worth of the ring for an admission of {@code k} jobs: answers the position to start
     * looking at and moves the cursor past them.
     */
    public long reserve(int k) {
        return next.getAndAdd(Math.max(1, k));
    }

    /**
     * An admission that started at {@code position} and looked at {@code looked} slots found fewer free ones there
     * than it wanted: the next admission starts beyond them, unless the cursor has already moved further.
     */
    public void skip(long position, long looked) {
        long past = position + Math.min(looked, slots);
        next.accumulateAndGet(past, Math::max);
    }

    /** The slot number (1 to the number of slots) of a position. */
    public int slotAt(long position) {
        return (int) Math.floorMod(position, (long) slots) + 1;
    }
}
