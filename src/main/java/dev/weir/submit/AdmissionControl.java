package dev.weir.submit;

import dev.weir.api.Admission;
import dev.weir.concurrency.AdmissionGauge;
import dev.weir.config.QueueSettings;
import dev.weir.config.WeirConfiguration;
import dev.weir.metrics.WeirMetrics;
import dev.weir.store.AdmissionSlots;
import dev.weir.store.SlotCursor;
import dev.weir.store.Sql;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The bounded queues of this instance ({@code weir.queue.<q>.max-pending}), their {@link AdmissionGauge}s and the
 * {@link SlotCursor}s where this instance's submitters look for free slots: turns a refusal from the database into an
 * {@link Admission.Refused}, counting it and suggesting a retry-after. Its state is built once from the configuration;
 * the gauges and cursors are thread-safe.
 */
@ApplicationScoped
public class AdmissionControl {

    private static final Logger LOG = Logger.getLogger(AdmissionControl.class.getName());

    @Inject
    WeirConfiguration configuration;

    @Inject
    WeirMetrics metrics;

    private Map<String, Integer> bounds;
    private Map<String, AdmissionGauge> gauges;
    private Map<String, SlotCursor> cursors;

    @PostConstruct
    void init() {
        Map<String, Integer> b = new LinkedHashMap<>();
        Map<String, AdmissionGauge> g = new LinkedHashMap<>();
        for (QueueSettings q : configuration.settings().queues()) {
            q.maxPending().ifPresent(limit -> {
                b.put(q.name(), limit);
                g.put(q.name(), new AdmissionGauge(q.name(), limit));
            });
        }
        bounds = Collections.unmodifiableMap(b);
        gauges = Collections.unmodifiableMap(g);
        cursors = Collections.unmodifiableMap(AdmissionSlots.cursors(bounds));
    }

    /** Bounded queue → max-pending; empty when no queue is bounded. */
    public Map<String, Integer> bounds() {
        return bounds;
    }

    /** Bounded queue → the cursor this instance's admissions start at; empty when no queue is bounded. */
    public Map<String, SlotCursor> cursors() {
        return cursors;
    }

    /** The gauge of a bounded queue. */
    public Optional<AdmissionGauge> gauge(String queue) {
        return Optional.ofNullable(gauges.get(queue));
    }

    /**
     * Turns a refusal of the store into the answer for the caller, in the caller's transaction (the completion rate
     * is read there, at most once a second per queue).
     */
    public Admission.Refused refusal(Sql sql, AdmissionSlots.Result refused) {
        AdmissionGauge gauge = gauges.get(refused.refusedQueue());
        long outstanding = Math.max(0, gauge.limit() - refused.available());
        Duration retryAfter = gauge.refuse(outstanding, refused.requested(),
                () -> AdmissionSlots.recentFinishes(sql, gauge.queue(), AdmissionGauge.WINDOW.toMillis(),
                        AdmissionGauge.COUNT_CAP));
        Admission.Refused r = new Admission.Refused(gauge.queue(), outstanding, gauge.limit(), refused.requested(),
                retryAfter);
        metrics.refused(gauge.queue());
        LOG.fine(r::describe);
        return r;
    }
}
