package dev.weir.admin;

import dev.weir.config.WeirConfiguration;
import dev.weir.store.JobStore;
import dev.weir.store.JobView;
import dev.weir.store.JtaTransactor;
import dev.weir.store.NewJob;
import dev.weir.submit.DefaultJobSubmitter;
import dev.weir.submit.Submissions;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.StringReader;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Submitting and reading jobs (DESIGN §5). */
@Path("jobs")
@RequestScoped
@RolesAllowed({Roles.VIEWER, Roles.SUBMITTER, Roles.ADMIN})
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    /** The largest body of a single submission. */
    static final int MAX_BODY_CHARS = Submissions.MAX_ARGS_BYTES + 64 * 1024;
    /** The largest body of a batch. */
    static final int MAX_BATCH_BODY_CHARS = 16 * 1024 * 1024;

    @Inject
    DefaultJobSubmitter submitter;

    @Inject
    WeirConfiguration configuration;

    @Inject
    JtaTransactor transactor;

    @POST
    @RolesAllowed({Roles.SUBMITTER, Roles.ADMIN})
    @Consumes(MediaType.APPLICATION_JSON)
    public Response submit(String body) {
        JsonValue value = read(body, MAX_BODY_CHARS);
        NewJob job = toNewJob(JobRequestParser.parse(value, "the job"), Instant.now());
        JobStore.Inserted inserted = submitter.insertValidated(List.of(job)).get(0);
        if (inserted.duplicate()) {
            // A unique job that exists already: the existing one, not a new one (DESIGN §7a).
            return Response.ok(Json.createObjectBuilder().add("id", inserted.id())
                    .add("state", inserted.state().dbName()).add("duplicate", true).build()).build();
        }
        // Relative to the API root (/api/), so the header reads /api/jobs/<id>.
        return Response.created(URI.create("jobs/" + inserted.id()))
                .entity(Json.createObjectBuilder().add("id", inserted.id()).add("state", inserted.state().dbName())
                        .build())
                .build();
    }

    @POST
    @RolesAllowed({Roles.SUBMITTER, Roles.ADMIN})
    @Path("batch")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response submitBatch(String body) {
        JsonValue value = read(body, MAX_BATCH_BODY_CHARS);
        if (!(value instanceof JsonArray array)) {
            throw new ApiError(400, "invalid_request", "a batch must be a JSON array of jobs");
        }
        if (array.isEmpty()) {
            throw new ApiError(400, "invalid_request", "a batch must hold at least one job");
        }
        if (array.size() > Submissions.MAX_BATCH) {
            throw new ApiError(413, "batch_too_large", "a batch holds at most " + Submissions.MAX_BATCH
                    + " jobs, this one " + array.size());
        }
        Instant now = Instant.now();
        List<NewJob> jobs = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            jobs.add(toNewJob(JobRequestParser.parse(array.get(i), "job [" + i + "]"), now));
        }
        JsonArrayBuilder ids = Json.createArrayBuilder();
        submitter.insertValidated(jobs).forEach(j -> ids.add(j.id()));
        return Response.status(201).entity(Json.createObjectBuilder().add("ids", ids).build()).build();
    }

    @GET
    @Path("{id}")
    public JsonObject get(@PathParam("id") String rawId) {
        long id;
        try {
            id = Long.parseLong(rawId);
        } catch (NumberFormatException e) {
            throw new ApiError(400, "invalid_id", "a job id is a whole number, not '" + rawId + "'");
        }
        JobView job = transactor.inNewTransaction(sql -> JobStore.get(sql, id))
                .orElseThrow(() -> new ApiError(404, "job_not_found", "no job has id " + id));
        return view(job);
    }

    private NewJob toNewJob(JobRequestParser.Parsed parsed, Instant now) {
        return Submissions.validate(configuration.settings(), parsed.kind(), parsed.argsJson(), parsed.options(), now);
    }

    static JsonValue read(String body, int maxChars) {
        if (body == null || body.isBlank()) {
            throw new ApiError(400, "invalid_request", "the request has no body");
        }
        if (body.length() > maxChars) {
            throw new ApiError(413, "payload_too_large", "the request body is larger than " + maxChars
                    + " characters");
        }
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            return reader.readValue();
        } catch (JsonParsingException e) {
            throw new ApiError(400, "malformed_json", "the body is not valid JSON: " + e.getMessage());
        } catch (JsonException e) {
            throw new ApiError(400, "malformed_json", "the body is not valid JSON: " + e.getMessage());
        }
    }

    static JsonObject view(JobView job) {
        JsonObjectBuilder b = Json.createObjectBuilder()
                .add("id", job.id())
                .add("kind", job.kind())
                .add("queue", job.queue())
                .add("state", job.state().dbName())
                .add("attempt", job.attempt())
                .add("maxAttempts", job.maxAttempts())
                .add("priority", job.priority());
        time(b, "runAt", job.runAt());
        time(b, "createdAt", job.createdAt());
        time(b, "attemptedAt", job.attemptedAt());
        time(b, "finalizedAt", job.finalizedAt());
        try (JsonReader errors = Json.createReader(new StringReader(job.errorsJson()));
                JsonReader args = Json.createReader(new StringReader(job.argsJson()))) {
            b.add("errors", errors.readArray());
            b.add("args", args.readValue());
        }
        if (job.progressJson() == null) {
            b.addNull("progress");
        } else {
            try (JsonReader progress = Json.createReader(new StringReader(job.progressJson()))) {
                b.add("progress", progress.readObject());
            }
        }
        return b.build();
    }

    private static void time(JsonObjectBuilder b, String name, Instant value) {
        if (value == null) {
            b.addNull(name);
        } else {
            b.add(name, value.toString());
        }
    }
}
