package dev.weir.diagnostics;

import dev.weir.admin.ApiError;
import dev.weir.admin.JobRequestParser;
import dev.weir.api.JobSubmitter;
import dev.weir.config.WeirConfiguration;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
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
 * application would: the answer's id must be readable after a commit and unknown after a rollback.
 */
@Path("diagnostics")
@RequestScoped
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
        transaction.begin();
        long id;
        try {
            id = submitter.submitJson(job.kind(), job.argsJson(), job.options());
        } catch (RuntimeException e) {
            transaction.rollback();
            throw e;
        }
        if (rollback) {
            transaction.rollback();
        } else {
            transaction.commit();
        }
        return Json.createObjectBuilder().add("id", id).add("committed", !rollback).build();
    }
}
