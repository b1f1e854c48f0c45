package dev.weir.admin;

import dev.weir.api.Admission;
import dev.weir.api.InvalidJobException;
import dev.weir.api.QueueFullException;
import dev.weir.api.UnknownQueueException;
import dev.weir.concurrency.RetryAfter;
import dev.weir.json.Jsonp;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Every failure of the REST API answers {@code {"error", "message"}} with a fitting status. */
public final class ErrorMappers {

    private static final Logger LOG = Logger.getLogger(ErrorMappers.class.getName());

    /** The message of a refusal for want of a role. */
    static final String FORBIDDEN = "the user has no role that may make this call";

    private ErrorMappers() {
    }

    /**
     * The answer JAX-RS gives for {@code e}, for a call answered outside the JAX-RS runtime ({@link SubmissionFilter}):
     * the mappers of the two classes that have their own, and otherwise {@link Unexpected}, which itself answers an
     * invalid job or a full queue (thrown or wrapped) as their mappers do.
     */
    static Response toResponse(RuntimeException e) {
        if (e instanceof ApiError api) {
            return api.toResponse();
        }
        if (e instanceof WebApplicationException web) {
            return new WebErrors().toResponse(web);
        }
        return new Unexpected().toResponse(e);
    }

    /** 403, as JAX-RS answers a call whose user has none of the method's roles. */
    static Response forbidden() {
        return ApiError.body(403, "forbidden", FORBIDDEN);
    }

    @Provider
    public static class ApiErrors implements ExceptionMapper<ApiError> {
        @Override
        public Response toResponse(ApiError e) {
            return e.toResponse();
        }
    }

    @Provider
    public static class InvalidJobs implements ExceptionMapper<InvalidJobException> {
        @Override
        public Response toResponse(InvalidJobException e) {
            int status = e instanceof UnknownQueueException ? 404
                    : e.code().equals("args_too_large") || e.code().equals("batch_too_large") ? 413 : 400;
            return ApiError.body(status, e.code(), e.getMessage());
        }
    }

    /**
     * A full bounded queue: {@code 429} with {@code Retry-After} (whole seconds) and
     * {@code {"error": "queue_full", "queue", "outstanding", "limit", "message"}}. Nothing was stored.
     */
    @Provider
    public static class QueueFull implements ExceptionMapper<QueueFullException> {
        @Override
        public Response toResponse(QueueFullException e) {
            Admission.Refused r = e.refusal();
            return Response.status(429).type(MediaType.APPLICATION_JSON_TYPE)
                    .header("Retry-After", Long.toString(RetryAfter.headerSeconds(r.retryAfter())))
                    .entity(Jsonp.PROVIDER.createObjectBuilder()
                            .add("error", "queue_full")
                            .add("queue", r.queue())
                            .add("outstanding", r.outstanding())
                            .add("limit", r.limit())
                            .add("message", e.getMessage())
                            .build())
                    .build();
        }
    }

    @Provider
    public static class WebErrors implements ExceptionMapper<WebApplicationException> {
        @Override
        public Response toResponse(WebApplicationException e) {
            int status = e.getResponse().getStatus();
            String code = switch (status) {
                case 401 -> "unauthorized";
                case 403 -> "forbidden";
                case 404 -> "not_found";
                case 405 -> "method_not_allowed";
                case 406 -> "not_acceptable";
                case 415 -> "unsupported_media_type";
                default -> "http_" + status;
            };
            String message = status == 403 ? FORBIDDEN : e.getMessage();
            return ApiError.body(status, code, message);
        }
    }

    @Provider
    public static class Unexpected implements ExceptionMapper<RuntimeException> {
        @Override
        public Response toResponse(RuntimeException e) {
            Throwable cause = e;
            while (true) {
                if (cause instanceof InvalidJobException invalid) {
                    return new InvalidJobs().toResponse(invalid);
                }
                if (cause instanceof QueueFullException full) {
                    return new QueueFull().toResponse(full);
                }
                if (cause.getCause() == null || cause == cause.getCause()) {
                    break;
                }
                cause = cause.getCause();
            }
            String incident = Long.toString(System.nanoTime(), 36);
            LOG.log(Level.WARNING, "Weir: REST call failed (incident " + incident + ")", e);
            // The details stay in the server log: they may hold SQL or data that is not the caller's business.
            return ApiError.body(500, "internal_error", "the server could not complete the request; see incident "
                    + incident + " in the server log");
        }
    }
}
