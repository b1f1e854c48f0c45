package dev.weir.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.function.Function;

/** {@link Transactor} in the server: a JTA transaction of its own around EclipseLink native queries. */
@ApplicationScoped
public class JtaTransactor implements Transactor {

    @PersistenceContext(unitName = "weir")
    EntityManager em;

    @Override
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public <T> T inNewTransaction(Function<Sql, T> work) {
        return work.apply(new EntityManagerSql(em));
    }

    /** The persistence context of the caller's transaction (for submissions that join it). */
    public Sql current() {
        return new EntityManagerSql(em);
    }
}
