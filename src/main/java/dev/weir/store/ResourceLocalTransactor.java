package dev.weir.store;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import java.util.Map;
import java.util.function.Function;

/**
 * A {@link Transactor} on a resource-local persistence unit: EclipseLink native queries in an {@code EntityTransaction}
 * on a non-transactional data source, with no JTA transaction manager in between (ADR 0025). The beans that extend it
 * name their persistence unit.
 */
public abstract class ResourceLocalTransactor implements Transactor {

    /** The persistence unit's factory (injected by the bean that extends this). */
    protected abstract EntityManagerFactory factory();

    @Override
    public <T> T inNewTransaction(Function<Sql, T> work) {
        EntityManager em = factory().createEntityManager();
        try {
            EntityTransaction tx = em.getTransaction();
            tx.begin();
            try {
                T result = work.apply(new EntityManagerSql(em));
                tx.commit();
                return result;
            } catch (RuntimeException | Error e) {
                if (tx.isActive()) {
                    tx.rollback();
                }
                throw e;
            }
        } finally {
            em.close();
        }
    }

    /**
     * Runs the statements of {@code work} (usually one) with no transaction begun: EclipseLink runs a native query
     * outside a transaction on a connection of the non-transactional data source, in auto-commit, so each statement
     * commits by itself.
     */
    @Override
    public <T> T alone(Function<Sql, T> work) {
        EntityManager em = factory().createEntityManager();
        try {
            return work.apply(new EntityManagerSql(em));
        } finally {
            em.close();
        }
    }

    /**
     * A session on one {@code EntityManager} that keeps its connection for its whole life (EclipseLink's exclusive
     * connection mode {@code Always}): no pool checkout, client session or unit of work to set up per statement.
     */
    @Override
    public Session session() {
        return new Session() {
            private EntityManager em;
            private EntityManagerSql sql;

            @Override
            public <T> T alone(Function<Sql, T> work) {
                if (em == null) {
                    em = factory().createEntityManager(Map.of("eclipselink.jdbc.exclusive-connection.mode", "Always"));
                    sql = new EntityManagerSql(em, true);
                }
                try {
                    return work.apply(sql);
                } catch (RuntimeException | Error e) {
                    close();
                    throw e;
                }
            }

            @Override
            public void close() {
                if (em != null) {
                    EntityManager closing = em;
                    em = null;
                    sql = null;
                    closing.close();
                }
            }
        };
    }
}
