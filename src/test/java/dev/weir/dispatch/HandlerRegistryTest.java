package dev.weir.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.diagnostics.DiagnosticHandlers;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HandlerRegistryTest {

    @Test
    void findsHandlersByKind() {
        HandlerRegistry r = new HandlerRegistry(DiagnosticHandlers.all());
        assertEquals(Set.of("weir.noop", "weir.sleep", "weir.fail", "weir.hang", "weir.crash", "weir.await-cancel",
                "weir.context"), r.kinds());
        assertTrue(r.find("weir.noop").isPresent());
        assertTrue(r.find("nope").isEmpty());
    }

    @Test
    void twoHandlersForOneKindStopTheDeployment() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new HandlerRegistry(List.of(new DiagnosticHandlers.Noop(), new DiagnosticHandlers.Noop())));
        assertTrue(e.getMessage().startsWith("DUPLICATE_HANDLER: job kind 'weir.noop'"), e.getMessage());
    }
}
