package dev.weir.store;

import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link Sql} over EclipseLink native queries, in whatever transaction the {@code EntityManager} is in (the caller's
 * JTA transaction, a resource-local one, or none). A kept session's instance keeps its queries to run them again
 * with new values (ADR 0026), so EclipseLink prepares each statement's SQL once per connection.
 */
public final class EntityManagerSql implements Sql {

    private final EntityManager em;
    /** Null: a new query per statement. Else the queries made so far, by their SQL, to run again with new values. */
    private final Map<String, Query> kept;

    public EntityManagerSql(EntityManager em) {
        this(em, false);
    }

    EntityManagerSql(EntityManager em, boolean keepQueries) {
        this.em = em;
        this.kept = keepQueries ? new HashMap<>() : null;
    }

    private Query create(String sql) {
        return kept == null ? em.createNativeQuery(sql) : kept.computeIfAbsent(sql, em::createNativeQuery);
    }

    @Override
    public List<Object[]> query(String sql, Object... params) {
        List<?> rows = bind(create(sql), params).getResultList();
        List<Object[]> result = new ArrayList<>(rows.size());
        for (Object row : rows) {
            result.add(row instanceof Object[] columns ? columns : new Object[] {row});
        }
        return result;
    }

    @Override
    public int update(String sql, Object... params) {
        return bind(create(sql), params).executeUpdate();
    }

    private static Query bind(Query query, Object... params) {
        for (int i = 0; i < params.length; i++) {
            query.setParameter(i + 1, params[i]);
        }
        return query;
    }
}
