package dev.weir.config;

/**
 * Configuration Weir refuses to start with. The message is one line an operator can act on:
 * {@code CODE: key = value (rule)}, for example {@code INVALID_WEIGHT: weir.queue.emails.weight = 0 (must be ≥ 1)}.
 */
public class InvalidConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String code;

    public InvalidConfigurationException(String code, String detail) {
        super(code + ": " + detail);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
