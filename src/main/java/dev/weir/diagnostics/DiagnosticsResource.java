package dev.weir.diagnostics;

import dev.weir.admin.ApiError;
import dev.weir.admin.JobRequestParser;
import dev.weir.admin.JobsResource;
import dev.weir.api.Admission;
import dev.weir.api.JobKind;
import dev.weir.api.JobRequest;
import dev.weir.config.WeirConfiguration;
import dev.weir.json.Jsonp;
import dev.weir.submit.DefaultJobSubmitter;
import dev.weir.submit.GroupCommit;
import dev.weir.submit.Submissions;
import jakarta.annotation.Resource;
import dev.weir.admin.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.transaction.UserTransaction;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.StringReader;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;

/**
 * Diagnostics an operator or a test drives from outside, present only with {@code weir.diagnostics.enabled=true}.
 *
 * <p>{@code POST /api/diagnostics/transactional-submit {"job": {…}, "rollback": bool}} submits one job through the
 * injected {@link JobSubmitter} inside a JTA transaction that it then commits or rolls back, exactly as an
 * application would: the answer's id must be readable after a commit and unknown after a rollback. With
 * {@code "try": true} it uses {@link JobSubmitter#trySubmitJson} and answers {@code {"admitted", "id"?, "committed",
 * "queue"?, "outstanding"?, "limit"?, "retryAfterSeconds"?}}: a refusal is an answer, and the transaction around it
 * still commits (or rolls back, as asked).
 *
 * <p>{@code POST /api/diagnostics/submit-load {"job": {…}, "threads", "batch", "seconds"}} has {@code threads}
 * threads of the server call {@link JobSubmitter} for {@code seconds} seconds, each call submitting {@code batch}
 * copies of the job outside any transaction ({@code submit} for one, {@code submitAll} for more; concurrent calls
 * share commits, ADR 0030), and answers {@code {"jobs", "calls", "errors", "firstError"?, "seconds", "groupCommits"}}:
 * the benchmark's measure of in-process submission, which an HTTP client cannot give.
 *
 * <p>{@code GET /api/diagnostics/group-commits} answers {@code {"groups", "requests"}}: the shared transactions that
 * submissions made outside a transaction took since the server started, and the submissions they held (ADR 0030), so
 * that the benchmark can tell the submissions per commit of any load, over HTTP too.
 */
@Path("diagnostics")
@RequestScoped
@RolesAllowed(Roles.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class DiagnosticsResource {

    @Inject
    WeirConfiguration configuration;

    @Inject
    DefaultJobSubmitter submitter;

    @Resource
    UserTransaction transaction;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @POST
    @Path("submit-load")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject submitLoad(String body) throws InterruptedException {
        JsonObject request = diagnosticRequest(body);
        JobRequestParser.Parsed job = JobRequestParser.parse(request.getOrDefault("job", JsonValue.NULL), "job");
        int threads = bounded(request, "threads", 16, 1, 64);
        int batch = bounded(request, "batch", 1, 1, 1000);
        int seconds = bounded(request, "seconds", 10, 1, 60);
        JobKind<JsonObject> kind = JobKind.of(job.kind(), JsonObject.class);
        JsonObject args = job.argsJson() == null ? JsonValue.EMPTY_JSON_OBJECT : parse(job.argsJson());
        // A job that cannot be submitted is a bad request, not a run of errors.
        Submissions.validate(configuration.settings(), job.kind(), args.toString(), job.options(), Instant.now());
        List<JobRequest<JsonObject>> copies = Collections.nCopies(batch, JobRequest.of(kind, args, job.options()));
        GroupCommit.Counts groupsBefore = submitter.groupCounts();
        SubmitLoad.Result r = SubmitLoad.run(executor, threads, Duration.ofSeconds(seconds), batch == 1
                ? () -> {
                    submitter.submit(kind, args, job.options());
                    return 1;
                }
                : () -> submitter.submitAll(copies).size());
        JsonObjectBuilder answer = Jsonp.PROVIDER.createObjectBuilder().add("jobs", r.jobs()).add("calls", r.calls())
                .add("errors", r.errors()).add("seconds", r.seconds())
                .add("groupCommits", submitter.groupCounts().groups() - groupsBefore.groups());
        if (r.firstError() != null) {
            answer.add("firstError", r.firstError());
        }
        return answer.build();
    }

    @GET
    @Path("group-commits")
    public JsonObject groupCommits() {
        diagnosticsEnabled();
        GroupCommit.Counts counts = submitter.groupCounts();
        return Jsonp.PROVIDER.createObjectBuilder().add("groups", counts.groups()).add("requests", counts.requests())
                .build();
    }

    private void diagnosticsEnabled() {
        if (!configuration.settings().diagnostics()) {
            throw new ApiError(404, "not_found", "diagnostics are disabled (weir.diagnostics.enabled)");
        }
    }

    private JsonObject diagnosticRequest(String body) {
        diagnosticsEnabled();
        if (JobsResource.read(body, JobsResource.MAX_BODY_CHARS) instanceof JsonObject request) {
            return request;
        }
        throw new ApiError(400, "invalid_request", "the body must be a JSON object");
    }

    private static JsonObject parse(String json) {
        try (JsonReader reader = Jsonp.PROVIDER.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }

    private static int bounded(JsonObject request, String name, int otherwise, int min, int max) {
        JsonValue v = request.get(name);
        if (v == null || v == JsonValue.NULL) {
            return otherwise;
        }
        if (v instanceof JsonNumber n && n.isIntegral()) {
            BigInteger given = n.bigIntegerValue();
            if (given.compareTo(BigInteger.valueOf(min)) >= 0 && given.compareTo(BigInteger.valueOf(max)) <= 0) {
                return given.intValue();
            }
        }
        throw new ApiError(400, "invalid_" + name, name + ": must be a whole number from " + min + " to " + max
                + ", was " + v);
    }

    @POST
    @Path("transactional-submit")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject transactionalSubmit(String body) throws Exception {
        JsonObject request = diagnosticRequest(body);
        JobRequestParser.Parsed job = JobRequestParser.parse(request.getOrDefault("job", JsonValue.NULL), "job");
        boolean rollback = request.getBoolean("rollback", false);
        boolean tryOnly = request.getBoolean("try", false);
        transaction.begin();
        JsonObjectBuilder answer = Jsonp.PROVIDER.createObjectBuilder();
        try {
            if (tryOnly) {
                Admission a = submitter.trySubmitJson(job.kind(), job.argsJson(), job.options());
                answer.add("admitted", a.admitted());
                if (a instanceof Admission.Refused r) {
                    answer.add("queue", r.queue()).add("outstanding", r.outstanding()).add("limit", r.limit())
                            .add("retryAfterSeconds", r.retryAfter().toSeconds());
                } else {
                    answer.add("id", a.ids().get(0));
                }
            } else {
                answer.add("id", submitter.submitJson(job.kind(), job.argsJson(), job.options()));
            }
        } catch (RuntimeException e) {
            transaction.rollback();
            throw e;
        }
        if (rollback) {
            transaction.rollback();
        } else {
            transaction.commit();
        }
        return answer.add("committed", !rollback).build();
    }
}
