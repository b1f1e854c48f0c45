package dev.weir.admin;

import dev.weir.config.WeirConfiguration;
import dev.weir.json.Jsonp;
import dev.weir.store.JobState;
import dev.weir.store.JobStore;
import dev.weir.store.JobView;
import dev.weir.store.JtaTransactor;
import dev.weir.store.NewJob;
import dev.weir.submit.DefaultJobSubmitter;
import dev.weir.submit.Submissions;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.StringReader;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Submitting and reading jobs (DESIGN §5), listing them and the operator actions on them (ADR 0021). */
@Path("jobs")
@ApplicationScoped
@RolesAllowed({Roles.VIEWER, Roles.SUBMITTER, Roles.ADMIN})
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    /** The largest body of a single submission. */
    public static final int MAX_BODY_CHARS = Submissions.MAX_ARGS_BYTES + 64 * 1024;
    /** The largest body of a batch. */
    static final int MAX_BATCH_BODY_CHARS = 16 * 1024 * 1024;

    @Inject
    DefaultJobSubmitter submitter;

    @Inject
    WeirConfiguration configuration;

    @Inject
    JtaTransactor transactor;

    @Inject
    JobOperations operations;

    /** Ids looked at, at most, for one page of the job list (one backward range scan of the primary key). */
    static final int LIST_LOOK_AT = 5000;

    @POST
    @RolesAllowed({Roles.SUBMITTER, Roles.ADMIN})
    @Consumes(MediaType.APPLICATION_JSON)
    public Response submit(String body) {
        // A plainly valid body is read in one pass; any other goes through JSON-P and its errors (ADR 0045).
        JobRequestParser.Parsed parsed = SubmissionJson.one(body, MAX_BODY_CHARS);
        if (parsed == null) {
            parsed = JobRequestParser.parse(read(body, MAX_BODY_CHARS), "the job");
        }
        NewJob job = toNewJob(parsed, Instant.now());
        JobStore.Inserted inserted = submitter.insertValidated(List.of(job)).get(0);
        if (inserted.duplicate()) {
            // A unique job that exists already: the existing one, not a new one (DESIGN §7a).
            return Response.ok(SubmitAnswer.one(inserted)).build();
        }
        // Relative to the API root (/api/), so the header reads /api/jobs/<id>.
        return Response.created(URI.create("jobs/" + inserted.id())).entity(SubmitAnswer.one(inserted)).build();
    }

    @POST
    @RolesAllowed({Roles.SUBMITTER, Roles.ADMIN})
    @Path("batch")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response submitBatch(String body) {
        Instant now = Instant.now();
        List<NewJob> jobs;
        // A plainly valid body is read in one pass; any other goes through JSON-P and its errors (ADR 0045).
        List<JobRequestParser.Parsed> plain = SubmissionJson.batch(body, MAX_BATCH_BODY_CHARS, Submissions.MAX_BATCH);
        if (plain != null) {
            jobs = new ArrayList<>(plain.size());
            for (JobRequestParser.Parsed parsed : plain) {
                jobs.add(toNewJob(parsed, now));
            }
        } else {
            jobs = batchThroughJsonp(body, parsed -> toNewJob(parsed, now));
        }
        return Response.status(201).entity(SubmitAnswer.batch(submitter.insertValidated(jobs))).build();
    }

    /** A batch's jobs read through JSON-P, each checked as soon as it is read, so the first error found is told. */
    static <T> List<T> batchThroughJsonp(String body, Function<JobRequestParser.Parsed, T> check) {
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
        List<T> jobs = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            jobs.add(check.apply(JobRequestParser.parse(array.get(i), "job [" + i + "]")));
        }
        return jobs;
    }

    @GET
    @Path("{id}")
    public JsonObject get(@PathParam("id") String rawId) {
        long id = id(rawId);
        JobView job = transactor.inNewTransaction(sql -> JobStore.get(sql, id))
                .orElseThrow(() -> new ApiError(404, "job_not_found", "no job has id " + id));
        return view(job);
    }

    /**
     * A page of jobs, newest first: {@code {"jobs": [<summary>…], "nextBefore": <id or null>}}. One page looks at no
     * more than {@value #LIST_LOOK_AT} ids below {@code before}, so with a rare filter a page may hold fewer than
     * {@code limit} jobs (even none) while {@code nextBefore} is not null: follow it until it is null.
     */
    @GET
    @RolesAllowed({Roles.VIEWER, Roles.SUBMITTER, Roles.ADMIN})
    public JsonObject list(@QueryParam("queue") String queue, @QueryParam("state") String state,
            @QueryParam("kind") String kind, @QueryParam("before") String before, @QueryParam("limit") String limit) {
        JobListQuery q = JobListQuery.parse(queue, state, kind, before, limit,
                name -> configuration.settings().queue(name).isPresent());
        JobStore.JobPage page = transactor.inNewTransaction(sql -> JobStore.list(sql, q.before(), q.state(), q.queue(),
                q.kind(), q.limit(), Math.max(LIST_LOOK_AT, q.limit())));
        JsonArrayBuilder jobs = Jsonp.PROVIDER.createArrayBuilder();
        page.jobs().forEach(j -> jobs.add(summary(j)));
        JsonObjectBuilder b = Jsonp.PROVIDER.createObjectBuilder().add("jobs", jobs);
        Long next = nextBefore(page, q.limit(), Math.max(LIST_LOOK_AT, q.limit()));
        if (next == null) {
            b.addNull("nextBefore");
        } else {
            b.add("nextBefore", next);
        }
        return b.build();
    }

    /**
     * Where the next page starts: after the last job when the page is full; after the lowest id looked at when the
     * look stopped at its cap (older jobs remain unseen); otherwise nowhere (null), the look reached the first job.
     */
    static Long nextBefore(JobStore.JobPage page, int limit, int lookAt) {
        if (page.jobs().size() == limit) {
            return page.jobs().get(page.jobs().size() - 1).id();
        }
        if (page.looked() >= lookAt && page.lowestLooked() != null) {
            return page.lowestLooked();
        }
        return null;
    }

    /** Makes a waiting or finished job available now (ADR 0021); 409 while it runs; 429 if its bounded queue is full. */
    @POST
    @Path("{id}/retry")
    @RolesAllowed({Roles.ADMIN})
    public JsonObject retry(@PathParam("id") String rawId) {
        return view(operations.retry(id(rawId)));
    }

    /** Cancels a waiting job at once, or asks a running one to stop (it ends cancelled unless it completes). */
    @POST
    @Path("{id}/cancel")
    @RolesAllowed({Roles.ADMIN})
    public JsonObject cancel(@PathParam("id") String rawId) {
        return view(operations.cancel(id(rawId)));
    }

    /** Discards a waiting job; 409 while it runs or once it finished. */
    @POST
    @Path("{id}/discard")
    @RolesAllowed({Roles.ADMIN})
    public JsonObject discard(@PathParam("id") String rawId) {
        return view(operations.discard(id(rawId)));
    }

    /** Retries every discarded job matching {@code {"queue"?, "kind"?}}: {@code {"retried": n, "skipped": m}}. */
    @POST
    @Path("retry")
    @RolesAllowed({Roles.ADMIN})
    public JsonObject retryDiscarded(String body) {
        String queue = null;
        String kind = null;
        if (body != null && !body.isBlank()) {
            JsonValue value = read(body, 64 * 1024);
            if (!(value instanceof JsonObject filter)) {
                throw new ApiError(400, "invalid_request", "the body must be a JSON object {\"queue\"?, \"kind\"?}");
            }
            for (String field : filter.keySet()) {
                if (!field.equals("queue") && !field.equals("kind")) {
                    throw new ApiError(400, "unknown_field", "unknown field '" + field + "' (known: queue, kind)");
                }
            }
            queue = filterString(filter, "queue");
            kind = JobListQuery.kind(filterString(filter, "kind"));
        }
        if (queue != null && configuration.settings().queue(queue).isEmpty()) {
            throw new ApiError(404, "unknown_queue", "queue: '" + queue + "' is not configured (see weir.queues)");
        }
        JobOperations.BulkRetry done = operations.retryDiscarded(queue, kind);
        return Jsonp.PROVIDER.createObjectBuilder().add("retried", done.retried()).add("skipped", done.skipped())
                .build();
    }

    private static String filterString(JsonObject filter, String field) {
        JsonValue v = filter.get(field);
        if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (!(v instanceof jakarta.json.JsonString s) || s.getString().isBlank()) {
            throw new ApiError(400, "invalid_" + field, field + ": must be a non-empty string");
        }
        return s.getString();
    }

    private static long id(String rawId) {
        try {
            return Long.parseLong(rawId);
        } catch (NumberFormatException e) {
            throw new ApiError(400, "invalid_id", "a job id is a whole number, not '" + rawId + "'");
        }
    }

    private NewJob toNewJob(JobRequestParser.Parsed parsed, Instant now) {
        return Submissions.validate(configuration.settings(), parsed.kind(), parsed.argsJson(), parsed.options(), now);
    }

    /** The body as JSON, or a 400 (none, or not JSON) or a 413 (longer than {@code maxChars}). */
    public static JsonValue read(String body, int maxChars) {
        if (body == null || body.isBlank()) {
            throw new ApiError(400, "invalid_request", "the request has no body");
        }
        if (body.length() > maxChars) {
            throw new ApiError(413, "payload_too_large", "the request body is larger than " + maxChars
                    + " characters");
        }
        try (JsonReader reader = Jsonp.PROVIDER.createReader(new StringReader(body))) {
            return reader.readValue();
        } catch (JsonParsingException e) {
            throw new ApiError(400, "malformed_json", "the body is not valid JSON: " + e.getMessage());
        } catch (JsonException e) {
            throw new ApiError(400, "malformed_json", "the body is not valid JSON: " + e.getMessage());
        }
    }

    static JsonObject view(JobView job) {
        JsonObjectBuilder b = head(job.id(), job.kind(), job.queue(), job.state(), job.attempt(), job.maxAttempts(),
                job.priority(), job.runAt(), job.createdAt(), job.attemptedAt(), job.finalizedAt());
        try (JsonReader errors = Jsonp.PROVIDER.createReader(new StringReader(job.errorsJson()));
                JsonReader args = Jsonp.PROVIDER.createReader(new StringReader(job.argsJson()))) {
            b.add("errors", errors.readArray());
            b.add("args", args.readValue());
        }
        progress(b, job.progressJson());
        b.add("cancelRequested", job.cancelRequested());
        return b.build();
    }

    static JsonObject summary(JobStore.JobSummary job) {
        JsonObjectBuilder b = head(job.id(), job.kind(), job.queue(), job.state(), job.attempt(), job.maxAttempts(),
                job.priority(), job.runAt(), job.createdAt(), job.attemptedAt(), job.finalizedAt());
        if (job.lastError() == null) {
            b.addNull("lastError");
        } else {
            b.add("lastError", job.lastError());
        }
        progress(b, job.progressJson());
        b.add("cancelRequested", job.cancelRequested());
        return b.build();
    }

    private static void progress(JsonObjectBuilder b, String progressJson) {
        if (progressJson == null) {
            b.addNull("progress");
        } else {
            try (JsonReader progress = Jsonp.PROVIDER.createReader(new StringReader(progressJson))) {
                b.add("progress", progress.readObject());
            }
        }
    }

    /** The fields a job's full view and its summary in the list share. */
    private static JsonObjectBuilder head(long id, String kind, String queue, JobState state, int attempt,
            int maxAttempts, int priority, Instant runAt, Instant createdAt, Instant attemptedAt, Instant finalizedAt) {
        JsonObjectBuilder b = Jsonp.PROVIDER.createObjectBuilder()
                .add("id", id)
                .add("kind", kind)
                .add("queue", queue)
                .add("state", state.dbName())
                .add("attempt", attempt)
                .add("maxAttempts", maxAttempts)
                .add("priority", priority);
        time(b, "runAt", runAt);
        time(b, "createdAt", createdAt);
        time(b, "attemptedAt", attemptedAt);
        time(b, "finalizedAt", finalizedAt);
        return b;
    }

    private static void time(JsonObjectBuilder b, String name, Instant value) {
        if (value == null) {
            b.addNull(name);
        } else {
            b.add(name, value.toString());
        }
    }
}
