package dev.weir.dispatch;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Where the rest of the application finds the engine {@link WeirRuntime} started: a plain CDI bean, so that a
 * submission's announcement, a health check or a queue view reads one field instead of making a call into the EJB
 * container (a sixth of the server JVM's CPU samples during in-process submissions, when it was a call on the singleton).
 */
@ApplicationScoped
public class RunningEngine {

    private volatile Engine engine;

    /** The running engine; empty until start-up has finished. */
    public Optional<Engine> get() {
        return Optional.ofNullable(engine);
    }

    void set(Engine started) {
        engine = started;
    }
}
