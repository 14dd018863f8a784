package io.perflab.system;

/** The caller is known but may not do this, e.g. a command experiment without an administrator (403). */
public class NotAllowedException extends RuntimeException {

    public NotAllowedException(String message) {
        super(message);
    }
}
