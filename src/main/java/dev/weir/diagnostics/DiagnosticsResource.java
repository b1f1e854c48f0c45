package dev.weir.diagnostics;

import dev.weir.admin.ApiError;
import dev.weir.admin.JobRequestParser;
import dev.weir.api.Admission;
import dev.weir.api.JobSubmitter;
import dev.weir.config.WeirConfiguration;
import jakarta.annotation.Resource;
import dev.weir.admin.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.transaction.UserTransaction;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.StringReader;

/**
 * Diagnostics an operator or a test drives from outside, present only with {@code weir.diagnostics.enabled=true}.
 *
 * <p>{@code POST /api/diagnostics/transactional-submit {"job": {…}, "rollback": bool}} submits one job through the
 * injected {@link JobSubmitter} inside a JTA transaction that it then commits or rolls back, exactly as an
 * application would: the answer's id must be readable after a commit and unknown after a rollback. With
 * {@code "try": true} it uses {@link JobSubmitter#trySubmitJson} and answers {@code {"admitted", "id"?, "committed",
 * "queue"?, "outstanding"?, "limit"?, "retryAfterSeconds"?}}: a refusal is an answer, and the transaction around it
 * still commits (or rolls back, as asked).
 */
@Path("diagnostics")
@RequestScoped
@RolesAllowed(Roles.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class DiagnosticsResource {

    @Inject
    WeirConfiguration configuration;

    @Inject
    JobSubmitter submitter;

    @Resource
    UserTransaction transaction;

    @POST
    @Path("transactional-submit")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject transactionalSubmit(String body) throws Exception {
        if (!configuration.settings().diagnostics()) {
            throw new ApiError(404, "not_found", "diagnostics are disabled (weir.diagnostics.enabled)");
        }
        JsonObject request;
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            request = reader.readObject();
        }
        JobRequestParser.Parsed job = JobRequestParser.parse(request.getOrDefault("job", JsonValue.NULL), "job");
        boolean rollback = request.getBoolean("rollback", false);
        boolean tryOnly = request.getBoolean("try", false);
        transaction.begin();
        JsonObjectBuilder answer = Json.createObjectBuilder();
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
