package io.perflab.upload;

/**
 * The {@code Idempotency-Key} of an upload: a retry that repeats it stores nothing new. Its rule, for the API and for
 * {@code perflab upload --idempotency-key}, which checks it before sending: 1 to {@value #MAX_LENGTH} printable ASCII
 * characters, which an HTTP header carries as they are (a tab or an {@code é} arrived as whatever bytes the client
 * sent, and the CLI could not send them at all).
 */
public final class IdempotencyKey {

    /** The longest key, in characters. */
    public static final int MAX_LENGTH = 200;

    private IdempotencyKey() {
    }

    /**
     * What is wrong with {@code key}, without naming the header or flag that gave it, e.g. "must be printable ASCII
     * …; character 2 is U+0009"; null when nothing is.
     */
    public static String problem(String key) {
        if (key.isEmpty() || key.length() > MAX_LENGTH) {
            return "must have 1 to " + MAX_LENGTH + " characters, got " + key.length();
        }
        if (key.isBlank()) {
            return "must have a character other than spaces";
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < ' ' || c > '~') {
                return "must be printable ASCII (letters, digits, punctuation, spaces), which an HTTP header carries "
                        + "as it is; character " + (i + 1) + " is " + String.format("U+%04X", key.codePointAt(i));
            }
        }
        return null;
    }
}
