package dev.weir.admin;

import dev.weir.config.WeirConfiguration;
import dev.weir.json.Jsonp;
import dev.weir.store.JobStore;
import dev.weir.store.JtaTransactor;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;

/** Statistics over every instance, from the database (ADR 0021). */
@Path("stats")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class StatsResource {

    @Inject
    WeirConfiguration configuration;

    @Inject
    JtaTransactor transactor;

    /**
     * Jobs finalized per bucket and terminal state over the last {@code seconds} (60–3600, default 600), in buckets
     * of {@code bucket} seconds (1–600, default 10), of one {@code queue} or all: {@code {"bucketSeconds", "buckets":
     * [{"at", "completed", "discarded", "cancelled"}…]}}, oldest first, every bucket present.
     */
    @GET
    @Path("throughput")
    @RolesAllowed({Roles.VIEWER, Roles.SUBMITTER, Roles.ADMIN})
    public JsonObject throughput(@QueryParam("seconds") String seconds, @QueryParam("bucket") String bucket,
            @QueryParam("queue") String queue) {
        Throughput window = Throughput.of(seconds, bucket, Instant.now());
        String q = JobListQuery.blankToNull(queue);
        if (q != null && configuration.settings().queue(q).isEmpty()) {
            throw new ApiError(404, "unknown_queue", "queue: '" + q + "' is not configured (see weir.queues)");
        }
        List<JobStore.FinalizedCount> counts = transactor.inNewTransaction(sql -> JobStore.finalizedPerBucket(sql,
                window.fromEpochSecond(), window.toEpochSecond(), window.bucketSeconds(), q));
        JsonArrayBuilder buckets = Jsonp.PROVIDER.createArrayBuilder();
        for (Throughput.Bucket b : window.fill(counts)) {
            buckets.add(Jsonp.PROVIDER.createObjectBuilder()
                    .add("at", b.at().toString())
                    .add("completed", b.completed())
                    .add("discarded", b.discarded())
                    .add("cancelled", b.cancelled()));
        }
        return Jsonp.PROVIDER.createObjectBuilder().add("bucketSeconds", window.bucketSeconds()).add("buckets", buckets)
                .build();
    }
}
