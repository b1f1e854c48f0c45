package dev.weir.security;

import dev.weir.json.Jsonp;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.authentication.mechanism.http.HttpAuthenticationMechanism;
import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Hashtable;
import java.util.Optional;
import javax.security.auth.Subject;

/**
 * HTTP Basic for every protected path ({@code /api/*}, see web.xml), stateless: each request carries its credentials,
 * no session is made. A missing or wrong credential answers 401 with Weir's JSON error body. The challenge header
 * ({@code WWW-Authenticate: Basic realm="Weir"}) is left out for requests that say {@code X-Requested-With:
 * XMLHttpRequest} — the dashboard's — so that the browser shows its own log-in form rather than a native dialog.
 * Unprotected paths (health, metrics, the dashboard's static files) are let through untouched.
 */
@ApplicationScoped
public class BasicAuthentication implements HttpAuthenticationMechanism {

    static final String REALM = "Weir";
    /** Where a login's cache key goes in the client subject's credentials, for the container (Liberty's name). */
    static final String CACHE_KEY = "com.ibm.wsspi.security.cred.cacheKey";

    /**
     * Asked directly, not through the container's {@code IdentityStoreHandler}: Weir's users are its only identity
     * store, and the handler's walk over every store bean (through their proxies, for validation and again for
     * groups) cost about 6 % of a single submission's server time (ADR 0020, amendment 3).
     */
    @Inject
    WeirIdentityStore users;

    @Override
    public AuthenticationStatus validateRequest(HttpServletRequest request, HttpServletResponse response,
            HttpMessageContext context) {
        if (!context.isProtected()) {
            return context.doNothing();
        }
        String header = request.getHeader("Authorization");
        Optional<BasicCredentials> credentials = BasicCredentials.parse(header);
        if (credentials.isEmpty()) {
            return refuse(request, response, header == null ? "authentication required: HTTP Basic with a Weir user"
                    : "the Authorization header is not valid HTTP Basic");
        }
        CredentialValidationResult result = users.validate(
                new UsernamePasswordCredential(credentials.get().user(), credentials.get().password()));
        if (result.getStatus() != CredentialValidationResult.Status.VALID) {
            return refuse(request, response, "wrong user or password");
        }
        keyTheLogin(context, result);
        return context.notifyContainerAboutLogin(result.getCallerPrincipal(), result.getCallerGroups());
    }

    /**
     * Names the login for the container's authentication cache, so that every call of one user with one set of roles
     * reuses the subject (and its single-sign-on token) that the first call built, instead of building and signing a
     * new one per request (ADR 0020). The credentials were checked above on this very request; the key only says
     * who that turned out to be. The container reads it from a {@link Hashtable} among the client subject's private
     * credentials ({@value #CACHE_KEY}); a container that does not know the key ignores it.
     */
    private static void keyTheLogin(HttpMessageContext context, CredentialValidationResult result) {
        Subject subject = context.getClientSubject();
        if (subject == null) {
            return;
        }
        Hashtable<String, Object> credentials = new Hashtable<>();
        credentials.put(CACHE_KEY, LoginKey.of(result.getCallerPrincipal().getName(), result.getCallerGroups()));
        subject.getPrivateCredentials().add(credentials);
    }

    private static AuthenticationStatus refuse(HttpServletRequest request, HttpServletResponse response,
            String message) {
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        if (!"XMLHttpRequest".equalsIgnoreCase(request.getHeader("X-Requested-With"))) {
            response.setHeader("WWW-Authenticate", "Basic realm=\"" + REALM + "\", charset=\"UTF-8\"");
        }
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        try {
            response.getWriter().write(Jsonp.PROVIDER.createObjectBuilder()
                    .add("error", "unauthorized").add("message", message).build().toString());
            // Committed now: after a refusal Liberty's audit step decodes a "Basic" header once more and, when that
            // header is not Base64, fails with an exception that would otherwise turn this 401 into a 500.
            response.flushBuffer();
        } catch (IOException e) {
            // The client went away; the status is what matters.
        }
        return AuthenticationStatus.SEND_FAILURE;
    }
}
