package io.perflab.system;

/** What the caller asked for does not exist (the API answers 404). */
public class NotFoundException extends RuntimeException {

    public NotFoundException(String message) {
        super(message);
    }
}
