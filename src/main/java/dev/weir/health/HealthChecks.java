package dev.weir.health;

import dev.weir.concurrency.AdmissionGauge;
import dev.weir.concurrency.CapacityReport;
import dev.weir.concurrency.QueueCapacity;
import dev.weir.dispatch.Engine;
import dev.weir.dispatch.RunningEngine;
import dev.weir.store.AdmissionSlots;
import dev.weir.store.JtaTransactor;
import dev.weir.submit.AdmissionControl;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.eclipse.microprofile.health.Startup;

/**
 * Weir's health checks (DESIGN §6), one producer method per check:
 * <ul>
 * <li>{@code weir-started} (startup): the engine has started;</li>
 * <li>{@code weir-live} (liveness): no dispatcher or maintenance thread has died;</li>
 * <li>{@code weir-database} (readiness): a read-only query answers;</li>
 * <li>{@code weir-dispatchers} (readiness): dispatchers running and the instance not draining;</li>
 * <li>{@code weir-queues} (readiness): each queue's capacity, and a bounded queue's admission, as flat data; a busy
 * or full queue is still UP.</li>
 * </ul>
 */
@ApplicationScoped
public class HealthChecks {

    @Inject
    RunningEngine engine;

    @Inject
    AdmissionControl admission;

    @Inject
    JtaTransactor transactor;

    private Optional<Engine> engine() {
        return engine.get();
    }

    @Produces
    @Startup
    HealthCheck started() {
        return () -> HealthCheckResponse.named("weir-started").status(engine().isPresent()).build();
    }

    @Produces
    @Liveness
    HealthCheck live() {
        // A draining engine has stopped its threads on purpose; that is not a reason to restart the process.
        return () -> HealthCheckResponse.named("weir-live")
                .status(engine().map(e -> e.alive() || e.draining()).orElse(true)).build();
    }

    @Produces
    @Readiness
    HealthCheck database() {
        return () -> {
            HealthCheckResponseBuilder b = HealthCheckResponse.named("weir-database");
            Optional<Engine> e = engine();
            if (e.isEmpty()) {
                return b.down().withData("reason", "starting").build();
            }
            try {
                e.get().probe();
                return b.up().build();
            } catch (RuntimeException ex) {
                return b.down().withData("reason", String.valueOf(rootMessage(ex))).build();
            }
        };
    }

    @Produces
    @Readiness
    HealthCheck dispatchers() {
        return () -> {
            HealthCheckResponseBuilder b = HealthCheckResponse.named("weir-dispatchers");
            Optional<Engine> e = engine();
            if (e.isEmpty()) {
                return b.down().withData("reason", "starting").build();
            }
            return b.status(e.get().alive())
                    .withData("draining", e.get().draining())
                    .withData("leader", e.get().leader())
                    .withData("listening", e.get().listening())
                    .withData("instance", e.get().instance())
                    .build();
        };
    }

    @Produces
    @Readiness
    HealthCheck queues() {
        return () -> {
            HealthCheckResponseBuilder b = HealthCheckResponse.named("weir-queues").up();
            engine().ifPresent(e -> {
                for (Map.Entry<String, QueueCapacity> q : e.capacities().entrySet()) {
                    String p = q.getKey() + ".";
                    CapacityReport report = q.getValue().report();
                    if (report instanceof CapacityReport.Weighted w) {
                        b.withData(p + "mode", "weighted");
                        b.withData(p + "min-workers", w.minWorkers());
                        b.withData(p + "weight", w.weight());
                        b.withData(p + "overflow-held", w.overflowHeld());
                    } else if (report instanceof CapacityReport.HardReserved h) {
                        b.withData(p + "mode", "hard-reserved");
                        b.withData(p + "max-workers", h.maxWorkers());
                    }
                    b.withData(p + "in-flight", report.inFlight());
                }
                if (!admission.bounds().isEmpty()) {
                    admission(b);
                }
            });
            return b.build();
        };
    }

    /** {@code <q>.max-pending}, {@code <q>.outstanding} and {@code <q>.refused} of each bounded queue. */
    private void admission(HealthCheckResponseBuilder b) {
        Map<String, Long> outstanding;
        try {
            outstanding = transactor.inNewTransaction(AdmissionSlots::outstanding);
        } catch (RuntimeException e) {
            // The database check reports an unreachable database; this one stays UP with what it knows.
            outstanding = null;
        }
        for (Map.Entry<String, Integer> q : admission.bounds().entrySet()) {
            String p = q.getKey() + ".";
            b.withData(p + "max-pending", q.getValue());
            if (outstanding != null) {
                b.withData(p + "outstanding", outstanding.getOrDefault(q.getKey(), 0L));
            }
            b.withData(p + "refused", admission.gauge(q.getKey()).map(AdmissionGauge::refusals).orElse(0L));
        }
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
