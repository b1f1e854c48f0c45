package dev.weir.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceUnit;

/**
 * {@link Transactor} for submissions made outside an application's transaction, which Weir groups into shared
 * transactions of its own (ADR 0030): resource-local transactions of the persistence unit {@code weir-submit}, on a
 * data source that validates a pooled connection before handing it out, as {@code jdbc/weir} does, so that a
 * submission after a database restart gets a working connection.
 */
@ApplicationScoped
public class SubmissionTransactor extends ResourceLocalTransactor {

    @PersistenceUnit(unitName = "weir-submit")
    EntityManagerFactory factory;

    @Override
    protected EntityManagerFactory factory() {
        return factory;
    }
}
