package dev.weir.api;

/**
 * How far a running job has got, as its handler reports it through {@link JobContext#progress(Progress)}: a
 * percentage, a short message for people, and a checkpoint for the job itself — a small JSON value from which a
 * later attempt can resume ({@link JobContext#checkpoint()}). Progress survives retries and is cleared when the job
 * completes.
 *
 * @param percent        0 to 100
 * @param message        for people, at most {@value #MAX_MESSAGE} characters; may be null
 * @param checkpointJson any JSON value, at most {@value #MAX_CHECKPOINT} characters; may be null
 */
public record Progress(int percent, String message, String checkpointJson) {

    public static final int MAX_MESSAGE = 1000;
    public static final int MAX_CHECKPOINT = 64 * 1024;

    public Progress {
        if (percent < 0 || percent > 100) {
            throw new IllegalArgumentException("percent must be within 0..100: " + percent);
        }
        if (message != null && message.length() > MAX_MESSAGE) {
            throw new IllegalArgumentException("message longer than " + MAX_MESSAGE + " characters");
        }
        if (checkpointJson != null && checkpointJson.length() > MAX_CHECKPOINT) {
            throw new IllegalArgumentException("checkpoint longer than " + MAX_CHECKPOINT + " characters");
        }
    }

    public static Progress of(int percent, String message) {
        return new Progress(percent, message, null);
    }
}
