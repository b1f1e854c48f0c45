package dev.weir.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Reads one PostgreSQL setting as a data source's sessions have it, for the start-up checks. */
final class SessionSetting {

    private SessionSetting() {
    }

    /** {@code current_setting(name)} on one of the data source's connections. */
    static String of(DataSource dataSource, String name) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement("SELECT current_setting(?)")) {
            s.setString(1, name);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getString(1);
            }
        }
    }
}
