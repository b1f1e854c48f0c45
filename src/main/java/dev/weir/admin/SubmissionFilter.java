package dev.weir.admin;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Submissions ({@code POST /api/jobs} and {@code POST /api/jobs/batch}) answered without the JAX-RS runtime: the
 * request has passed the container's authentication and web.xml's constraint; this filter checks the roles that the
 * resource method names in its {@link RolesAllowed}, reads the body, calls that same method of {@link JobsResource}
 * and writes its {@link Response}, or maps its exception through {@link ErrorMappers#toResponse}. What the call does
 * and answers is the resource's; only the dispatch is skipped (ADR 0044).
 *
 * <p>A request that is not plainly such a call goes on to JAX-RS, which answers it as it always did: another method,
 * a body that is not {@code application/json}, an {@code Accept} that {@link SubmissionRequest} does not clearly read
 * as taking JSON.
 */
@WebFilter(urlPatterns = {"/api/jobs", "/api/jobs/batch"}, asyncSupported = true)
public class SubmissionFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    private static final List<String> SINGLE_ROLES = roles("submit");
    private static final List<String> BATCH_ROLES = roles("submitBatch");

    @Inject
    transient JobsResource jobs;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!SubmissionRequest.takes(request.getMethod(), request.getContentType(), request.getHeader("Accept"))) {
            chain.doFilter(request, response);
            return;
        }
        boolean batch = request.getRequestURI().endsWith("/batch");
        Response answer;
        if (!(batch ? BATCH_ROLES : SINGLE_ROLES).stream().anyMatch(request::isUserInRole)) {
            answer = ErrorMappers.forbidden();
        } else {
            try {
                String body = body(request);
                answer = batch ? jobs.submitBatch(body) : jobs.submit(body);
            } catch (RuntimeException e) {
                answer = ErrorMappers.toResponse(e);
            }
        }
        write(answer, request, response);
    }

    private static String body(HttpServletRequest request) throws IOException {
        if (request.getCharacterEncoding() == null) {
            request.setCharacterEncoding(StandardCharsets.UTF_8.name());
        }
        StringBuilder text = new StringBuilder(Math.max(16, Math.min(request.getContentLength(), 1 << 20)));
        char[] buffer = new char[8192];
        try (Reader reader = request.getReader()) {
            for (int n = reader.read(buffer); n >= 0; n = reader.read(buffer)) {
                text.append(buffer, 0, n);
            }
        }
        return text.toString();
    }

    /**
     * Status, headers and JSON body as JAX-RS would write them: a relative {@code Location} is resolved against the
     * API's root, as the runtime resolves it against the application's base URI ({@code jobs/5} → {@code
     * http://host/api/jobs/5}).
     */
    private static void write(Response answer, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        response.setStatus(answer.getStatus());
        answer.getStringHeaders().forEach((name, values) -> {
            for (String value : values) {
                if (name.equalsIgnoreCase("Location")) {
                    value = URI.create(request.getRequestURL().toString()).resolve(value).toString();
                }
                if (!name.equalsIgnoreCase("Content-Type")) {
                    response.addHeader(name, value);
                }
            }
        });
        byte[] body = String.valueOf(answer.getEntity()).getBytes(StandardCharsets.UTF_8);
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    private static List<String> roles(String method) {
        RolesAllowed allowed;
        try {
            allowed = JobsResource.class.getMethod(method, String.class).getAnnotation(RolesAllowed.class);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("JobsResource." + method + "(String) is gone", e);
        }
        return List.of((allowed != null ? allowed : JobsResource.class.getAnnotation(RolesAllowed.class)).value());
    }
}
