package dev.weir.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link Sql} over one plain JDBC connection: for the few statements Weir runs outside EclipseLink (announcing new
 * jobs after a commit) and for tests that run Weir's statements without a container. Rewrites the JPA-style
 * {@code ?N} parameters to JDBC's {@code ?}, repeating values as needed.
 */
public final class ConnectionSql implements Sql {

    private static final Pattern PARAM = Pattern.compile("\\?(\\d+)");

    private final Connection connection;

    public ConnectionSql(Connection connection) {
        this.connection = connection;
    }

    @Override
    public List<Object[]> query(String sql, Object... params) {
        try (PreparedStatement ps = prepare(sql, params); ResultSet rs = ps.executeQuery()) {
            int columns = rs.getMetaData().getColumnCount();
            List<Object[]> rows = new ArrayList<>();
            while (rs.next()) {
                Object[] row = new Object[columns];
                for (int i = 0; i < columns; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                rows.add(row);
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public int update(String sql, Object... params) {
        try (PreparedStatement ps = prepare(sql, params)) {
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private PreparedStatement prepare(String sql, Object... params) throws SQLException {
        Matcher m = PARAM.matcher(sql);
        List<Object> ordered = new ArrayList<>();
        StringBuilder jdbc = new StringBuilder();
        while (m.find()) {
            ordered.add(params[Integer.parseInt(m.group(1)) - 1]);
            m.appendReplacement(jdbc, "?");
        }
        m.appendTail(jdbc);
        PreparedStatement ps = connection.prepareStatement(jdbc.toString());
        for (int i = 0; i < ordered.size(); i++) {
            ps.setObject(i + 1, ordered.get(i));
        }
        return ps;
    }
}
