package io.perflab.system;

/** The request does not fit the current state, e.g. resuming a finished experiment (the API answers 409). */
public class ConflictException extends RuntimeException {

    public ConflictException(String message) {
        super(message);
    }
}
