package io.perflab.upload;

/**
 * The {@code Idempotency-Key} of an upload: a retry that repeats it stores nothing new. Its rule, for the API and for
 * {@code perflab upload --idempotency-key}, which checks it before sending.
 */
public final class IdempotencyKey {

    /** The longest key, in characters. */
    public static final int MAX_LENGTH = 200;

    private IdempotencyKey() {
    }

    /** What is wrong with {@code key}, without naming the header or flag that gave it; null when nothing is. */
    public static String problem(String key) {
        return key.isBlank() || key.length() > MAX_LENGTH ? "must have 1 to " + MAX_LENGTH + " characters" : null;
    }
}
