package dev.weir.json;

import jakarta.json.spi.JsonProvider;

/**
 * The JSON-P provider, looked up once. The static methods of {@code jakarta.json.Json} look the provider up again on
 * every call, a service-loader search of the class path: under batch submissions over HTTP that search was about 7 % of
 * the server's CPU. Weir's code makes its readers, builders and values through {@link #PROVIDER} instead.
 */
public final class Jsonp {

    /** The provider {@code jakarta.json.Json} would find, found once; thread-safe, as JSON-P requires. */
    public static final JsonProvider PROVIDER = JsonProvider.provider();

    private Jsonp() {
    }
}
