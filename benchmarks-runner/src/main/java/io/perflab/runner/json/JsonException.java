package io.perflab.runner.json;

/** JSON text that cannot be read, with the offset of the first error in the message. */
public final class JsonException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public JsonException(String message) {
        super(message);
    }
}
