package dev.weir.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.e2e.Server.Reply;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Who may call what (DESIGN §5): every endpoint group, anonymous and as each role, against the running server.
 * Viewers read; submitters submit and read; admins do everything; nobody without a valid user gets in, and the
 * probes stay open.
 */
class SecurityIT {

    private static final String JOB = "{\"kind\": \"weir.noop\"}";

    /** One call of each endpoint group, and the lowest role that may make it. */
    private enum Call {
        LIST_QUEUES("GET", "/api/queues", null, TestUser.VIEWER),
        ONE_QUEUE("GET", "/api/queues/default", null, TestUser.VIEWER),
        ONE_JOB("GET", "/api/jobs/1", null, TestUser.VIEWER),
        PERIODIC("GET", "/api/periodic", null, TestUser.VIEWER),
        ME("GET", "/api/me", null, TestUser.VIEWER),
        LIST_JOBS("GET", "/api/jobs?limit=1", null, TestUser.VIEWER),
        THROUGHPUT("GET", "/api/stats/throughput", null, TestUser.VIEWER),
        SUBMIT("POST", "/api/jobs", JOB, TestUser.SUBMITTER),
        SUBMIT_BATCH("POST", "/api/jobs/batch", "[" + JOB + "]", TestUser.SUBMITTER),
        PAUSE_QUEUE("POST", "/api/queues/emails/resume", "", TestUser.ADMIN),
        PAUSE_PERIODIC("POST", "/api/periodic/new-year/resume", "", TestUser.ADMIN),
        DIAGNOSTICS("POST", "/api/diagnostics/transactional-submit", "{}", TestUser.ADMIN),
        SUBMIT_LOAD("POST", "/api/diagnostics/submit-load", "{}", TestUser.ADMIN),
        GROUP_COMMITS("GET", "/api/diagnostics/group-commits", null, TestUser.ADMIN),
        // Operator actions on a job that does not exist (404 for an admin) and a filter that matches nothing.
        RETRY_JOB("POST", "/api/jobs/999999999/retry", "", TestUser.ADMIN),
        CANCEL_JOB("POST", "/api/jobs/999999999/cancel", "", TestUser.ADMIN),
        DISCARD_JOB("POST", "/api/jobs/999999999/discard", "", TestUser.ADMIN),
        BULK_RETRY("POST", "/api/jobs/retry", "{\"kind\": \"security-it.nothing\"}", TestUser.ADMIN);

        final String method;
        final String path;
        final String body;
        final TestUser lowest;

        Call(String method, String path, String body, TestUser lowest) {
            this.method = method;
            this.path = path;
            this.body = body;
            this.lowest = lowest;
        }

        HttpRequest.Builder request() {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(Server.BASE + path));
            return body == null ? b.GET()
                    : b.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        }

        boolean allows(TestUser user) {
            return user.ordinal() >= lowest.ordinal();
        }
    }

    @ParameterizedTest
    @EnumSource(Call.class)
    void anonymousCallsAreRefusedWithAChallenge(Call call) {
        Reply r = Server.send(call.request(), null);
        assertEquals(401, r.status(), call + ": " + r.body());
        assertEquals("unauthorized", r.json().getString("error"));
        assertTrue(r.raw().headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic realm=\"Weir\""));
    }

    @ParameterizedTest
    @EnumSource(Call.class)
    void eachRoleGetsExactlyItsCalls(Call call) {
        for (TestUser user : TestUser.values()) {
            Reply r = Server.send(call.request(), user);
            if (call.allows(user)) {
                assertTrue(r.status() != 401 && r.status() != 403, call + " as " + user + ": " + r.status() + " "
                        + r.body());
            } else {
                assertEquals(403, r.status(), call + " as " + user + ": " + r.body());
                assertEquals("forbidden", r.json().getString("error"));
            }
        }
    }

    @Test
    void aWrongPasswordAnUnknownUserAndAMalformedHeaderAreRefused() {
        for (String authorization : List.of(TestUser.basic("admin", "not-the-password"),
                TestUser.basic("root", TestUser.ADMIN.password), TestUser.basic("admin", ""),
                "Basic not-base64!", "Bearer abc")) {
            Reply r = Server.send(HttpRequest.newBuilder(URI.create(Server.BASE + "/api/queues"))
                    .header("Authorization", authorization).GET(), null);
            assertEquals(401, r.status(), authorization + ": " + r.body());
        }
    }

    /**
     * Each login is kept by the container under its user and roles (ADR 0020), so that later calls reuse it. The
     * kept login must never stand in for the check: users interleaved call after call are each themselves, and a
     * wrong password right after the right one is still refused.
     */
    @Test
    void aKeptLoginNeverStandsInForTheCredentialsOfTheCall() {
        for (int round = 0; round < 5; round++) {
            for (TestUser user : TestUser.values()) {
                assertEquals(user.name, Server.get("/api/me", user).json().getString("user"));
                Reply wrong = Server.send(HttpRequest.newBuilder(URI.create(Server.BASE + "/api/me"))
                        .header("Authorization", TestUser.basic(user.name, user.password + "x")).GET(), null);
                assertEquals(401, wrong.status(), user + " with a wrong password: " + wrong.body());
            }
            assertEquals(403, Server.post("/api/queues/emails/resume", "", TestUser.VIEWER).status());
            assertEquals(204, Server.post("/api/queues/emails/resume", "", TestUser.ADMIN).status());
            assertEquals(403, Server.post("/api/queues/emails/resume", "", TestUser.SUBMITTER).status());
        }
    }

    @Test
    void theDashboardsCallsGetNoChallengeSoTheBrowserShowsNoDialog() {
        Reply r = Server.send(HttpRequest.newBuilder(URI.create(Server.BASE + "/api/queues"))
                .header("X-Requested-With", "XMLHttpRequest").GET(), null);
        assertEquals(401, r.status());
        assertTrue(r.raw().headers().firstValue("WWW-Authenticate").isEmpty());
    }

    @Test
    void meTellsTheUserAndItsRoles() {
        for (TestUser user : TestUser.values()) {
            JsonObject me = Server.get("/api/me", user).json();
            assertEquals(user.name, me.getString("user"));
            JsonArray roles = me.getJsonArray("roles");
            assertEquals(List.of("weir-" + user.name), roles.getValuesAs(JsonString::getString));
        }
    }

    @Test
    void probesStayOpen() {
        for (String path : List.of("/health/live", "/health/ready", "/health/started")) {
            Reply r = Server.send(HttpRequest.newBuilder(URI.create(Server.BASE + path)).GET(), null);
            assertEquals(200, r.status(), path + ": " + r.body());
        }
    }

    @Test
    void aSubmitterFollowsWhatItSubmittedButAViewerSubmitsNothing() {
        Reply submitted = Server.post("/api/jobs", JOB, TestUser.SUBMITTER);
        assertEquals(201, submitted.status(), submitted.body());
        long id = submitted.json().getJsonNumber("id").longValue();
        assertEquals(200, Server.get("/api/jobs/" + id, TestUser.SUBMITTER).status());
        assertEquals(200, Server.get("/api/jobs/" + id, TestUser.VIEWER).status());

        Reply refused = Server.post("/api/jobs", JOB, TestUser.VIEWER);
        assertEquals(403, refused.status());
        assertFalse(refused.body().contains("\"id\""), "nothing was stored: " + refused.body());
        assertNull(refused.raw().headers().firstValue("Location").orElse(null));
    }
}
