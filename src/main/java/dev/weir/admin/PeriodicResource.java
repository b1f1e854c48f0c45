package dev.weir.admin;

import dev.weir.config.Periodic;
import dev.weir.config.WeirConfiguration;
import dev.weir.json.Jsonp;
import dev.weir.store.JobStore;
import dev.weir.store.JtaTransactor;
import dev.weir.metrics.Submitted;
import dev.weir.metrics.WeirMetrics;
import dev.weir.submit.Announcer;
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
import java.util.List;
import java.util.Map;

/** Periodic (cron) jobs: what is configured, when each fires next, and pause / resume / run now (ADR 0018). */
@Path("periodic")
@ApplicationScoped
@RolesAllowed({Roles.VIEWER, Roles.SUBMITTER, Roles.ADMIN})
@Produces(MediaType.APPLICATION_JSON)
public class PeriodicResource {

    @Inject
    WeirConfiguration configuration;

    @Inject
    JtaTransactor transactor;

    @Inject
    Announcer announcer;

    @Inject
    WeirMetrics metrics;

    @GET
    public JsonArray list() {
        Map<String, JobStore.PeriodicState> states = transactor.inNewTransaction(JobStore::periodicStates);
        JsonArrayBuilder all = Jsonp.PROVIDER.createArrayBuilder();
        for (Periodic p : configuration.settings().periodic()) {
            all.add(view(p, states.get(p.name())));
        }
        return all.build();
    }

    @GET
    @Path("{name}")
    public JsonObject get(@PathParam("name") String name) {
        Periodic p = periodic(name);
        return view(p, transactor.inNewTransaction(JobStore::periodicStates).get(p.name()));
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

    /** Submits one job now, off the schedule (whether or not the periodic job is paused); answers its id. */
    @POST
    @RolesAllowed(Roles.ADMIN)
    @Path("{name}/run")
    public Response runNow(@PathParam("name") String name) {
        Periodic p = periodic(name);
        long id = transactor.inNewTransaction(sql -> JobStore.runPeriodicNow(sql, p.name(), p.kind(), p.queue(),
                p.argsJson())).orElseThrow(PeriodicResource::notRegistered);
        announcer.afterCommit(List.of(p.queue()));
        Submitted.one(metrics, p.queue(), p.kind(), id, "available");
        return Response.status(201).entity(Jsonp.PROVIDER.createObjectBuilder().add("id", id).build()).build();
    }

    private Response setPaused(String name, boolean paused) {
        Periodic p = periodic(name);
        if (!transactor.inNewTransaction(sql -> JobStore.setPeriodicPaused(sql, p.name(), paused))) {
            throw notRegistered();
        }
        return Response.noContent().build();
    }

    private Periodic periodic(String name) {
        return configuration.settings().periodic().stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new ApiError(404, "unknown_periodic_job",
                        "periodic job '" + name + "' is not configured (see weir.cron.<name>.schedule)"));
    }

    private static ApiError notRegistered() {
        return new ApiError(503, "not_ready", "periodic jobs are registered when the engine starts; try again");
    }

    private static JsonObject view(Periodic p, JobStore.PeriodicState state) {
        JsonObjectBuilder b = Jsonp.PROVIDER.createObjectBuilder()
                .add("name", p.name())
                .add("schedule", p.schedule().toString())
                .add("timeZone", p.zone().getId())
                .add("kind", p.kind())
                .add("queue", p.queue());
        if (state == null) {
            b.addNull("paused").addNull("nextFireAt").addNull("lastFireAt");
        } else {
            b.add("paused", state.paused()).add("nextFireAt", state.nextFire().toString());
            if (state.lastFire() == null) {
                b.addNull("lastFireAt");
            } else {
                b.add("lastFireAt", state.lastFire().toString());
            }
        }
        return b.build();
    }
}
