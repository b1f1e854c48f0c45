package dev.weir.store;

import java.util.List;

/**
 * Runs native SQL inside the current transaction. In the server it is an EclipseLink {@code EntityManager}
 * ({@link EntityManagerSql}); in tests that need no container, a plain JDBC connection. Parameters are
 * positional ({@code ?1, ?2, …}) and always bound, never spliced into the text.
 */
public interface Sql {

    /** Runs a statement that returns rows; each row is an array of its columns, even with one column. */
    List<Object[]> query(String sql, Object... params);

    /** Runs a statement that returns no rows; answers the number of rows changed. */
    int update(String sql, Object... params);
}
