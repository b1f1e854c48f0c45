package dev.weir.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.e2e.Server.Reply;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The API's OpenAPI document (MicroProfile OpenAPI: the hand-written META-INF/openapi.yaml merged with what the server
 * scans from the resources) describes every operation the server has, and the UI is served.
 */
class OpenApiIT {

    private static JsonObject document() {
        Reply r = Server.send(HttpRequest.newBuilder(URI.create(Server.BASE + "/openapi?format=JSON")).GET(), null);
        assertEquals(200, r.status(), "the document is open, like the health checks: " + r.body());
        return r.json();
    }

    @Test
    void everyOperationIsDescribedWithItsSecurityAnswers() {
        JsonObject paths = document().getJsonObject("paths");
        List<String> undocumented = new ArrayList<>();
        int operations = 0;
        for (Map.Entry<String, JsonValue> path : paths.entrySet()) {
            for (Map.Entry<String, JsonValue> op : path.getValue().asJsonObject().entrySet()) {
                if (!List.of("get", "post", "put", "delete", "patch").contains(op.getKey())) {
                    continue;
                }
                operations++;
                JsonObject operation = op.getValue().asJsonObject();
                String name = op.getKey().toUpperCase() + " " + path.getKey();
                // An operation the server found in a resource class but META-INF/openapi.yaml does not describe has
                // neither a summary nor the 401 answer.
                if (!operation.containsKey("summary") || !operation.getJsonObject("responses").containsKey("401")) {
                    undocumented.add(name);
                }
            }
        }
        assertTrue(undocumented.isEmpty(), "describe these in src/main/resources/META-INF/openapi.yaml: " + undocumented);
        assertTrue(operations >= 20, "only " + operations + " operations");
        for (String path : List.of("/api/jobs", "/api/jobs/batch", "/api/jobs/{id}", "/api/queues", "/api/queues/{name}",
                "/api/queues/{name}/pause", "/api/periodic", "/api/me")) {
            assertTrue(paths.containsKey(path), path + " is missing");
        }
    }

    @Test
    void theServerFindsTheDocumentValid() throws java.io.IOException {
        document();
        java.nio.file.Path log = java.nio.file.Path.of(System.getProperty("weir.it.server.dir"), "logs", "messages.log");
        String messages = java.nio.file.Files.readString(log, java.nio.charset.StandardCharsets.UTF_8);
        // CWWKO1650E: Liberty's validation of the merged document found errors (it serves the document anyway).
        assertFalse(messages.contains("CWWKO1650E"), "the OpenAPI document has validation errors: see messages.log");
    }

    @Test
    void theDocumentSaysHowToAuthenticate() {
        JsonObject d = document();
        JsonObject basic = d.getJsonObject("components").getJsonObject("securitySchemes").getJsonObject("basic");
        assertEquals("http", basic.getString("type"));
        assertEquals("basic", basic.getString("scheme"));
        assertEquals("basic", d.getJsonArray("security").getJsonObject(0).keySet().iterator().next());
    }

    @Test
    void everyDocumentedReadWithoutParametersAnswers() {
        for (Map.Entry<String, JsonValue> path : document().getJsonObject("paths").entrySet()) {
            if (path.getKey().contains("{") || !path.getValue().asJsonObject().containsKey("get")) {
                continue;
            }
            // Every read is a viewer's but the diagnostics', which are an admin's (SecurityIT checks each call's role).
            boolean diagnostics = path.getValue().asJsonObject().getJsonObject("get")
                    .getOrDefault("tags", JsonValue.EMPTY_JSON_ARRAY).asJsonArray()
                    .contains(Json.createValue("diagnostics"));
            Reply r = Server.get(path.getKey(), diagnostics ? TestUser.ADMIN : TestUser.VIEWER);
            assertEquals(200, r.status(), path.getKey() + ": " + r.body());
        }
    }

    @Test
    void theUiIsServed() {
        // HTTP/1.1 as browsers speak it to a plain-HTTP port: Java's client would otherwise offer an h2c upgrade, which
        // Liberty's OpenAPI UI never answers.
        Reply r = Server.send(HttpRequest.newBuilder(URI.create(Server.BASE + "/openapi/ui/"))
                .version(java.net.http.HttpClient.Version.HTTP_1_1).GET(), null);
        assertEquals(200, r.status());
        assertTrue(r.raw().headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
    }
}
