package dev.weir.concurrency;

import dev.weir.config.QueueSettings;
import dev.weir.config.WeirConfiguration;
import dev.weir.config.WeirSettings;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The instance's overflow pool in weighted mode, as a singleton EJB: one pool per server, shared by every queue's
 * dispatcher. It delegates each call to an {@link OverflowAllocator}, which holds the fair-share rule.
 *
 * <p>Locking, on purpose: bean-managed concurrency. The container's default for a singleton, a WRITE lock on every
 * method, would serialise every acquire and release of every queue behind a second, coarser lock around the
 * allocator's own; and a READ lock would add nothing, because the allocator is already thread-safe with one short
 * critical section per call and calls its listeners outside it. So the container adds no lock here.
 *
 * <p>The engine calls the allocator itself ({@link #allocator()}), taken from this singleton once at start-up.
 *
 * <p>Transactions: none. The pool touches no transactional resource, and an EJB's default (REQUIRED) would begin and
 * commit a JTA transaction around every call made outside one — every acquire and release of a dispatcher. (SUPPORTS
 * would be cheaper still inside the completer's transaction, but a singleton's start may not run with it.)
 */
@Singleton
@LocalBean
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class OverflowPool implements SharedOverflow {

    @Inject
    WeirConfiguration configuration;

    private OverflowAllocator allocator;

    @PostConstruct
    void create() {
        allocator = forSettings(configuration.settings());
    }

    /** The allocator weighted mode needs for these settings: {@code global − Σ min-workers} permits, by weight. */
    public static OverflowAllocator forSettings(WeirSettings settings) {
        int global = settings.globalMaxWorkers().orElse(0);
        int sumMin = settings.queues().stream().mapToInt(QueueSettings::minWorkers).sum();
        Map<String, Integer> weights = new LinkedHashMap<>();
        settings.queues().forEach(q -> weights.put(q.name(), q.weight()));
        return new OverflowAllocator(Math.max(0, global - sumMin), weights);
    }

    /**
     * The one allocator this singleton holds, for the engine's hot path: the engine takes it once at start-up and
     * calls it directly for every acquire, renewal and release. With bean-managed concurrency and no transaction the
     * container adds no lock and no transaction to a call, only the cost of its invocation, which weighted mode paid
     * on every turn of its permits (ADR 0009, amendment "the engine calls the allocator"). The singleton stays its
     * one owner: created once from the configuration, one per server.
     */
    public SharedOverflow allocator() {
        return allocator;
    }

    @Override
    public int tryAcquire(String queue, int wanted) {
        return allocator.tryAcquire(queue, wanted);
    }

    @Override
    public int renewable(String queue, int n) {
        return allocator.renewable(queue, n);
    }

    @Override
    public void release(String queue, int n) {
        allocator.release(queue, n);
    }

    @Override
    public void clearDemand(String queue) {
        allocator.clearDemand(queue);
    }

    @Override
    public void onCapacityFreed(Consumer<Set<String>> listener) {
        allocator.onCapacityFreed(listener);
    }

    @Override
    public int held(String queue) {
        return allocator.held(queue);
    }

    @Override
    public int weight(String queue) {
        return allocator.weight(queue);
    }

    @Override
    public int capacity() {
        return allocator.capacity();
    }

    @Override
    public int free() {
        return allocator.free();
    }
}
