package dev.weir.dispatch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.diagnostics.DiagnosticHandlers;
import dev.weir.store.AdmissionSlots;
import dev.weir.store.NewJob;
import dev.weir.testing.JdbcTransactor;
import dev.weir.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Elastic admission beside a running engine: the room the engine's workers give back, and a second start. */
@ExtendWith(TestDatabase.class)
class AdmissionEngineIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private final JdbcTransactor tx = new JdbcTransactor(TestDatabase.dataSource());

    private AdmissionSlots.Result admit(int n, String kind, String args) {
        List<NewJob> jobs = java.util.Collections.nCopies(n, new NewJob(kind, "default", args, 2, 25, null));
        return tx.inNewTransaction(sql -> AdmissionSlots.insert(sql, jobs,
                AdmissionSlots.cursors(Map.of("default", 10))));
    }

    @Test
    void anInstanceStartingBesideALeaderReconcilesAtOnceAndWorkersGiveTheRoomBack() throws Exception {
        Engine engine = TestEngine.start(TestEngine.settings(TestEngine.queue("default", 4)),
                List.of(new DiagnosticHandlers.Sleep()));
        try {
            await().atMost(WAIT).until(engine::leader);
            // Start-up reconciliation must not wait for any lock the running instance holds (its leader lock above all).
            CompletableFuture<List<AdmissionSlots.Reconciled>> started = CompletableFuture.supplyAsync(() -> {
                try {
                    return AdmissionSlots.reconcile(TestDatabase.dataSource(), Map.of("default", 10));
                } catch (java.sql.SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertEquals(10, started.get(10, TimeUnit.SECONDS).get(0).slots());

            assertTrue(admit(10, "weir.sleep", "{\"ms\": 200}").admitted());
            assertFalse(admit(1, "weir.noop", "{}").admitted(), "ten outstanding, running ones included");
            // No handler or test code frees anything: the jobs completing is what gives the room back.
            await().atMost(WAIT).until(() -> admit(10, "weir.sleep", "{\"ms\": 1}").admitted());
        } finally {
            engine.drain(Duration.ofSeconds(5));
        }
    }
}
