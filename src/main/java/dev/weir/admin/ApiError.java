package dev.weir.admin;

import dev.weir.json.Jsonp;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** A refusal with a machine-readable code and a message: {@code {"error": "<code>", "message": "…"}}. */
public class ApiError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;

    public ApiError(int status, String code, String message) {
        super(message);
        this.status = status;
        this.code = code;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Response toResponse() {
        return body(status, code, getMessage());
    }

    static Response body(int status, String code, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(Jsonp.PROVIDER.createObjectBuilder().add("error", code)
                        .add("message", message == null ? "" : message)
                        .build())
                .build();
    }
}
