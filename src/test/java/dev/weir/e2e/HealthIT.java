package dev.weir.e2e;

import static dev.weir.e2e.Server.get;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

/** Health endpoints (DESIGN §6) on the running server. */
class HealthIT {

    private static JsonObject check(JsonObject health, String name) {
        for (JsonValue c : health.getJsonArray("checks")) {
            if (c.asJsonObject().getString("name").equals(name)) {
                return c.asJsonObject();
            }
        }
        throw new AssertionError("no check " + name + " in " + health);
    }

    @Test
    void readyReportsDatabaseDispatchersAndQueueCapacity() {
        Server.Reply r = get("/health/ready");
        assertEquals(200, r.status(), r.body());
        JsonObject ready = r.json();
        assertEquals("UP", ready.getString("status"));
        assertEquals("UP", check(ready, "weir-database").getString("status"));
        JsonObject dispatchers = check(ready, "weir-dispatchers");
        assertEquals("UP", dispatchers.getString("status"));
        assertEquals(false, dispatchers.getJsonObject("data").getBoolean("draining"));
        JsonObject queues = check(ready, "weir-queues").getJsonObject("data");
        assertEquals("hard-reserved", queues.getString("default.mode"));
        assertEquals(100, queues.getInt("default.max-workers"));
        assertEquals(4, queues.getInt("emails.max-workers"));
        assertEquals(true, queues.containsKey("emails.in-flight"));
    }

    @Test
    void liveAndStartedAreUp() {
        assertEquals("UP", get("/health/live").json().getString("status"));
        assertEquals("UP", get("/health/started").json().getString("status"));
        assertEquals(200, get("/health").status());
    }
}
