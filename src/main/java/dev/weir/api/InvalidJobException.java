package dev.weir.api;

/** A submission Weir will not store: a bad kind, option or argument. Nothing was written. */
public class InvalidJobException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String code;

    public InvalidJobException(String code, String message) {
        super(message);
        this.code = code;
    }

    public InvalidJobException(String code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /** A short machine-readable code, such as {@code invalid_priority}; the REST API answers it as {@code error}. */
    public String code() {
        return code;
    }
}
