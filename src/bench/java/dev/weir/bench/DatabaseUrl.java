package dev.weir.bench;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * A PostgreSQL connection URL as other systems write it, {@code postgres://user:password@host:port/database?params}
 * (or {@code postgresql://}), turned into what Weir's server reads: a JDBC URL, a user and a password. A URL that is
 * already {@code jdbc:postgresql:} is taken as it is, with the user and password from its parameters if any.
 */
record DatabaseUrl(String jdbcUrl, String user, String password) {

    static DatabaseUrl parse(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("DATABASE_URL is not set");
        }
        if (url.startsWith("jdbc:postgresql:")) {
            return new DatabaseUrl(url, "postgres", "");
        }
        URI uri = URI.create(url);
        if (!"postgres".equals(uri.getScheme()) && !"postgresql".equals(uri.getScheme())) {
            throw new IllegalArgumentException("DATABASE_URL must start with postgres:// or postgresql://, not "
                    + uri.getScheme() + "://");
        }
        String user = "postgres";
        String password = "";
        String info = uri.getRawUserInfo();
        if (info != null) {
            int colon = info.indexOf(':');
            user = decode(colon < 0 ? info : info.substring(0, colon));
            password = colon < 0 ? "" : decode(info.substring(colon + 1));
        }
        String host = uri.getHost() == null ? "localhost" : uri.getHost();
        int port = uri.getPort() < 0 ? 5432 : uri.getPort();
        String path = uri.getRawPath() == null || uri.getRawPath().length() <= 1 ? "/" + user : uri.getRawPath();
        String query = uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
        return new DatabaseUrl("jdbc:postgresql://" + host + ":" + port + path + query, user, password);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
