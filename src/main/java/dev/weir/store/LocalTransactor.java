package dev.weir.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceUnit;

/**
 * {@link Transactor} for the engine's own work (claims, outcomes, heartbeats, maintenance): resource-local transactions
 * of the persistence unit {@code weir-engine}, on a data source of its own. That work never joins an application's
 * transaction, and its transactions are one statement or two on one connection, where JTA's begin and commit cost as
 * much as a statement (ADR 0025). Submissions in an application's transaction and the REST API's reads keep
 * {@link JtaTransactor}; submissions outside one use {@link SubmissionTransactor}.
 */
@ApplicationScoped
public class LocalTransactor extends ResourceLocalTransactor {

    @PersistenceUnit(unitName = "weir-engine")
    EntityManagerFactory factory;

    @Override
    protected EntityManagerFactory factory() {
        return factory;
    }
}
