package dev.weir.admin;

import java.util.Locale;

/**
 * Whether a request to a submission's path is plainly a submission that {@link SubmissionFilter} may answer without
 * the JAX-RS runtime: a {@code POST} whose body is {@code application/json} (any parameters, a charset among them)
 * and whose {@code Accept}, if any, names {@code application/json}, {@code application/*} or {@code *}{@code /*}
 * with no weight of zero. Anything else is left to JAX-RS, which answers it as the resource's annotations say (405,
 * 415, 406 and so on), so the two ways never answer one request differently.
 */
public final class SubmissionRequest {

    private SubmissionRequest() {
    }

    public static boolean takes(String method, String contentType, String accept) {
        return "POST".equals(method) && contentType != null && isJson(mediaType(contentType))
                && (accept == null || accept.isBlank() || acceptsJson(accept));
    }

    private static boolean acceptsJson(String accept) {
        boolean json = false;
        for (String range : accept.split(",")) {
            if (range.isBlank()) {
                continue;
            }
            if (weighsZero(range)) {
                // "q=0" refuses a type; reading that right is JAX-RS's business.
                return false;
            }
            String type = mediaType(range);
            json |= isJson(type) || type.equals("application/*") || type.equals("*/*");
        }
        return json;
    }

    private static boolean isJson(String type) {
        return type.equals("application/json");
    }

    /** The type and subtype, lower case, without parameters or spaces. */
    private static String mediaType(String value) {
        int semicolon = value.indexOf(';');
        return (semicolon < 0 ? value : value.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    }

    private static boolean weighsZero(String range) {
        String[] parts = range.split(";");
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].strip();
            if (p.length() > 2 && (p.charAt(0) == 'q' || p.charAt(0) == 'Q') && p.charAt(1) == '=') {
                try {
                    return Double.parseDouble(p.substring(2).strip()) == 0;
                } catch (NumberFormatException e) {
                    return true;
                }
            }
        }
        return false;
    }
}
