package dev.weir.store;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceUnit;
import java.time.Duration;
import java.util.function.Function;

/**
 * {@link Transactor} for submissions made outside an application's transaction, which Weir groups into shared
 * transactions of its own (ADR 0030): resource-local transactions of the persistence unit {@code weir-submit}, on a
 * data source that validates a pooled connection before handing it out, as {@code jdbc/weir} does, so that a
 * submission after a database restart gets a working connection. A group that is one statement runs on a kept
 * connection while groups follow one another closely, and on a newly validated one after a pause (ADR 0039).
 */
@ApplicationScoped
public class SubmissionTransactor extends ResourceLocalTransactor {

    /**
     * Connections kept between one-statement groups: as many as groups may run at once (two, ADR 0030). A submission
     * run again alone beside them after its group rolled back may open another, closed when it ends.
     */
    static final int KEPT = 2;

    /**
     * How soon after its last group a kept connection is used again without validation. Groups under load follow one
     * another within a fraction of a millisecond (ADR 0039); a connection quiet for longer is validated.
     */
    static final Duration FRESH = Duration.ofMillis(5);

    @PersistenceUnit(unitName = "weir-submit")
    EntityManagerFactory factory;

    private final KeptSessions kept = new KeptSessions(KEPT, FRESH.toNanos(), this::session, System::nanoTime);

    @Override
    protected EntityManagerFactory factory() {
        return factory;
    }

    /** Runs {@code work}'s statements alone on a kept connection while groups follow one another (ADR 0039). */
    @Override
    public <T> T alone(Function<Sql, T> work) {
        return kept.alone(work);
    }

    @PreDestroy
    void closeKept() {
        kept.close();
    }
}
