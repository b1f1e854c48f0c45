package dev.weir.store;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;

/** Reads columns of native-query rows, whatever numeric or time type the driver chose. */
final class Rows {

    private Rows() {
    }

    static long longAt(Object[] row, int i) {
        return ((Number) row[i]).longValue();
    }

    static int intAt(Object[] row, int i) {
        return ((Number) row[i]).intValue();
    }

    static String stringAt(Object[] row, int i) {
        return row[i] == null ? null : row[i].toString();
    }

    static Instant instantAt(Object[] row, int i) {
        Object value = row[i];
        if (value == null) {
            return null;
        }
        if (value instanceof Timestamp ts) {
            return ts.toInstant();
        }
        if (value instanceof OffsetDateTime odt) {
            return odt.toInstant();
        }
        if (value instanceof java.util.Date date) {
            return date.toInstant();
        }
        throw new IllegalStateException("not a time: " + value.getClass());
    }
}
