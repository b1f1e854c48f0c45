package dev.weir.store;

import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import java.util.ArrayList;
import java.util.List;

/** {@link Sql} over EclipseLink native queries, joined to the caller's JTA transaction. */
public final class EntityManagerSql implements Sql {

    private final EntityManager em;

    public EntityManagerSql(EntityManager em) {
        this.em = em;
    }

    @Override
    public List<Object[]> query(String sql, Object... params) {
        List<?> rows = bind(em.createNativeQuery(sql), params).getResultList();
        List<Object[]> result = new ArrayList<>(rows.size());
        for (Object row : rows) {
            result.add(row instanceof Object[] columns ? columns : new Object[] {row});
        }
        return result;
    }

    @Override
    public int update(String sql, Object... params) {
        return bind(em.createNativeQuery(sql), params).executeUpdate();
    }

    private static Query bind(Query query, Object... params) {
        for (int i = 0; i < params.length; i++) {
            query.setParameter(i + 1, params[i]);
        }
        return query;
    }
}
