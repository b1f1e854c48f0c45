package dev.weir.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.PersistenceUnit;
import java.util.Map;
import java.util.function.Function;

/**
 * {@link Transactor} for the engine's own work (claims, outcomes, heartbeats, maintenance): EclipseLink native
 * queries in a resource-local transaction of the persistence unit {@code weir-engine}, on a data source of its own,
 * with no JTA transaction manager in between. That work never joins an application's transaction, and its
 * transactions are one statement or two on one connection, where JTA's begin and commit cost as much as a statement
 * (ADR 0025). Submissions and the REST API keep {@link JtaTransactor}.
 */
@ApplicationScoped
public class LocalTransactor implements Transactor {

    @PersistenceUnit(unitName = "weir-engine")
    EntityManagerFactory factory;

    @Override
    public <T> T inNewTransaction(Function<Sql, T> work) {
        EntityManager em = factory.createEntityManager();
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
     * Runs the one statement of {@code work} with no transaction begun: EclipseLink runs a native query outside a
     * transaction on a connection of the non-transactional data source, in auto-commit, so the statement commits by
     * itself.
     */
    @Override
    public <T> T alone(Function<Sql, T> work) {
        EntityManager em = factory.createEntityManager();
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
                    em = factory.createEntityManager(Map.of("eclipselink.jdbc.exclusive-connection.mode", "Always"));
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
