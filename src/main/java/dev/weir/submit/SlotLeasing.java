package dev.weir.submit;

import dev.weir.concurrency.LeasedSlots;
import dev.weir.dispatch.Engine;
import dev.weir.dispatch.RunningEngine;
import dev.weir.store.AdmissionSlots;
import dev.weir.store.JobStore;
import dev.weir.store.NewJob;
import dev.weir.store.Sql;
import dev.weir.store.SubmissionTransactor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The submitters' side of leased admission slots (ADR 0033): before a group of submissions opens its transaction, it
 * is handed leased slots for its single jobs to bounded queues, from the running engine's {@link LeasedSlots}, leasing
 * more from the database when the pool runs short; the group then stores those jobs in their slots with no looking and
 * no lock to skip. Leases are statements that commit by themselves on the submission data source, outside any
 * transaction of the caller. With no engine running yet, nothing is leased and admission works as without leases.
 */
@ApplicationScoped
public class SlotLeasing {

    private static final Logger LOG = Logger.getLogger(SlotLeasing.class.getName());

    @Inject
    RunningEngine running;

    @Inject
    SubmissionTransactor transactor;

    @Inject
    AdmissionControl admission;

    /**
     * Held while leasing and while a refusal gives leases back: a lease in progress has its surplus in the pool before
     * a refusal drains it, and no lease takes the room a refusal gave back before the refused submission looks again.
     */
    private final ReentrantLock leasing = new ReentrantLock();

    /**
     * Hands out leased slots for {@code wanted} jobs per bounded queue (queue → how many): up to that many each, taken
     * from the pool first and leased for the rest, the lease's surplus kept in the pool. A queue the database has no
     * room worth leasing for gets fewer, or none. Never fails: a lease that cannot be made leaves the jobs to admission
     * without leases.
     */
    Map<String, int[]> handOut(Map<String, Integer> wanted) {
        Map<String, int[]> handed = new TreeMap<>();
        Optional<Engine> engine = running.get();
        if (wanted.isEmpty() || engine.isEmpty()) {
            return handed;
        }
        LeasedSlots pool = engine.get().leases();
        String instance = engine.get().instance();
        long now = System.nanoTime();
        wanted.forEach((queue, n) -> {
            int[] slots = pool.take(queue, n, now);
            if (slots.length < n && pool.mayLease(queue, now)) {
                leasing.lock();
                try {
                    // Another group may have leased meanwhile: its surplus is in the pool now.
                    slots = concat(slots, pool.take(queue, n - slots.length, now));
                    int shortfall = n - slots.length;
                    if (shortfall > 0) {
                        int want = LeasedSlots.want(n, shortfall);
                        int[] got = lease(queue, instance, want);
                        pool.leased(queue, want, got.length, now);
                        int used = Math.min(shortfall, got.length);
                        int[] surplus = Arrays.copyOfRange(got, used, got.length);
                        if (!pool.add(queue, surplus, now)) {
                            release(queue, instance, surplus);
                        }
                        slots = concat(slots, Arrays.copyOf(got, used));
                    }
                } finally {
                    leasing.unlock();
                }
            }
            if (slots.length > 0) {
                handed.put(queue, slots);
            }
        });
        return handed;
    }

    private static int[] concat(int[] a, int[] b) {
        int[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /**
     * Stores {@code jobs} of {@code queue} in {@code slots}, which {@link #handOut} gave, in {@code sql}'s
     * transaction; an empty answer when one of them could not be had (nothing stored), the slots still leased to this
     * instance then going back to the pool.
     */
    List<JobStore.Inserted> use(Sql sql, String queue, List<NewJob> jobs, int[] slots) {
        Engine engine = running.get().orElseThrow(() -> new IllegalStateException("no engine, so no leased slots"));
        AdmissionSlots.Used used = AdmissionSlots.use(sql, queue, engine.instance(), jobs, slots);
        if (used.inserted().isEmpty()) {
            engine.leases().add(queue, used.kept(), System.nanoTime());
        }
        return used.inserted();
    }

    /**
     * Returns slots handed out to a group whose transaction did not commit to the pool: the rollback left them leased
     * to this instance (a slot that is not, after all, fails its next use, harmlessly).
     */
    void putBack(Map<String, int[]> handed) {
        running.get().ifPresent(e -> {
            long now = System.nanoTime();
            handed.forEach((queue, slots) -> {
                if (!e.leases().add(queue, slots, now)) {
                    release(queue, e.instance(), slots);
                }
            });
        });
    }

    /**
     * For a submission that admission refused: gives this instance's unused leased slots of {@code queue} back to the
     * database and, if any came back, runs {@code again} (the submission's admission, once more) before any new lease
     * of this instance can take them. Answers what {@code again} answered, or null when nothing came back (the
     * refusal stands). So this instance's leases never make it refuse a submission that the room it leased would fit.
     */
    <T> T withLeasesGivenBack(String queue, Supplier<T> again) {
        Optional<Engine> engine = running.get();
        if (engine.isEmpty()) {
            return null;
        }
        leasing.lock();
        try {
            int[] slots = engine.get().leases().drain(queue);
            return slots.length > 0 && release(queue, engine.get().instance(), slots) ? again.get() : null;
        } finally {
            leasing.unlock();
        }
    }

    private int[] lease(String queue, String instance, int want) {
        Integer bound = admission.bounds().get(queue);
        try {
            return transactor.alone(sql -> AdmissionSlots.lease(sql, queue, instance, want, bound));
        } catch (RuntimeException e) {
            LOG.fine(() -> "Weir: could not lease admission slots of queue " + queue + ": " + e);
            return new int[0];
        }
    }

    /**
     * Gives {@code slots} back to the database; those it skipped (held by another transaction) or could not reach go
     * back to the pool, for the idle check to give back later. Answers whether any slot left this instance's lease.
     */
    private boolean release(String queue, String instance, int[] slots) {
        if (slots.length == 0) {
            return false;
        }
        int[] kept;
        try {
            kept = transactor.alone(sql -> AdmissionSlots.release(sql, queue, instance, slots));
        } catch (RuntimeException e) {
            LOG.fine(() -> "Weir: could not give back leased admission slots of queue " + queue + ": " + e);
            kept = slots;
        }
        int[] keep = kept;
        running.get().ifPresent(en -> en.leases().add(queue, keep, System.nanoTime()));
        return kept.length < slots.length;
    }
}
