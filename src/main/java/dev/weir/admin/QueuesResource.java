package dev.weir.admin;

import dev.weir.concurrency.CapacityReport;
import dev.weir.concurrency.QueueCapacity;
import dev.weir.concurrency.TokenBucket;
import dev.weir.config.QueueSettings;
import dev.weir.config.WeirConfiguration;
import dev.weir.dispatch.Engine;
import dev.weir.dispatch.RunningEngine;
import dev.weir.concurrency.AdmissionGauge;
import dev.weir.json.Jsonp;
import dev.weir.store.AdmissionSlots;
import dev.weir.store.JobState;
import dev.weir.submit.AdmissionControl;
import dev.weir.store.JobStore;
import dev.weir.store.JtaTransactor;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import java.util.Set;

/** Queues: their job counts, capacity on this instance, and pause / resume (DESIGN §5). */
@Path("queues")
@ApplicationScoped
@RolesAllowed({Roles.VIEWER, Roles.SUBMITTER, Roles.ADMIN})
@Produces(MediaType.APPLICATION_JSON)
public class QueuesResource {

    @Inject
    WeirConfiguration configuration;

    @Inject
    JtaTransactor transactor;

    @Inject
    RunningEngine engine;

    @Inject
    AdmissionControl admission;

    @GET
    public JsonArray list() {
        Snapshot s = snapshot();
        JsonArrayBuilder queues = Jsonp.PROVIDER.createArrayBuilder();
        for (QueueSettings q : configuration.settings().queues()) {
            queues.add(view(q, s));
        }
        return queues.build();
    }

    @GET
    @Path("{name}")
    public JsonObject get(@PathParam("name") String name) {
        return view(queue(name), snapshot());
    }

    @POST
    @RolesAllowed(Roles.ADMIN)
    @Path("{name}/pause")
    public Response pause(@PathParam("name") String name) {
        return setPaused(name, true);
    }

    @POST
    @RolesAllowed(Roles.ADMIN)
    @Path("{name}/resume")
    public Response resume(@PathParam("name") String name) {
        return setPaused(name, false);
    }

    private Response setPaused(String name, boolean paused) {
        QueueSettings q = queue(name);
        transactor.inNewTransaction(sql -> {
            JobStore.setPaused(sql, q.name(), paused);
            return null;
        });
        return Response.noContent().build();
    }

    private QueueSettings queue(String name) {
        return configuration.settings().queue(name).orElseThrow(
                () -> new ApiError(404, "unknown_queue", "queue '" + name + "' is not configured (see weir.queues)"));
    }

    private record Snapshot(Map<String, Map<JobState, Long>> counts, Set<String> paused, Map<String, Long> outstanding) {
    }

    private Snapshot snapshot() {
        boolean bounded = !admission.bounds().isEmpty();
        return transactor.inNewTransaction(sql -> new Snapshot(JobStore.countsByQueue(sql), JobStore.pausedQueues(sql),
                bounded ? AdmissionSlots.outstanding(sql) : Map.of()));
    }

    private JsonObject view(QueueSettings q, Snapshot s) {
        JsonObjectBuilder counts = Jsonp.PROVIDER.createObjectBuilder();
        Map<JobState, Long> byState = s.counts().getOrDefault(q.name(), Map.of());
        for (JobState state : JobState.values()) {
            counts.add(state.dbName(), byState.getOrDefault(state, 0L));
        }
        JsonObjectBuilder b = Jsonp.PROVIDER.createObjectBuilder()
                .add("name", q.name())
                .add("paused", s.paused().contains(q.name()))
                .add("counts", counts);
        QueueCapacity capacity = engine.get().map(Engine::capacities).map(c -> c.get(q.name())).orElse(null);
        if (capacity == null) {
            b.addNull("capacity");
        } else {
            b.add("capacity", capacity(capacity.report()));
        }
        TokenBucket bucket = engine.get().flatMap(e -> e.rateLimit(q.name())).orElse(null);
        if (bucket == null) {
            b.addNull("rateLimit");
        } else {
            // On this instance: each instance has a bucket of its own per rate-limited queue (DESIGN §3.4).
            b.add("rateLimit", Jsonp.PROVIDER.createObjectBuilder()
                    .add("rate", bucket.rate())
                    .add("burst", bucket.burst())
                    .add("tokens", bucket.available()));
        }
        AdmissionGauge gauge = admission.gauge(q.name()).orElse(null);
        if (gauge == null) {
            b.addNull("admission");
        } else {
            // Outstanding: the queue's jobs that hold an admission slot and are not terminal (ADR 0011). Refusals (and
            // the older name refused): on this instance, since it started.
            b.add("admission", Jsonp.PROVIDER.createObjectBuilder()
                    .add("maxPending", gauge.limit())
                    .add("outstanding", s.outstanding().getOrDefault(q.name(), 0L))
                    .add("refusals", gauge.refusals())
                    .add("refused", gauge.refusals()));
        }
        return b.build();
    }

    static JsonObject capacity(CapacityReport report) {
        if (report instanceof CapacityReport.Weighted w) {
            return Jsonp.PROVIDER.createObjectBuilder()
                    .add("mode", "weighted")
                    .add("minWorkers", w.minWorkers())
                    .add("weight", w.weight())
                    .add("overflowHeld", w.overflowHeld())
                    .add("inFlight", w.inFlight())
                    .build();
        }
        CapacityReport.HardReserved h = (CapacityReport.HardReserved) report;
        return Jsonp.PROVIDER.createObjectBuilder()
                .add("mode", "hard-reserved")
                .add("maxWorkers", h.maxWorkers())
                .add("inFlight", h.inFlight())
                .build();
    }
}
