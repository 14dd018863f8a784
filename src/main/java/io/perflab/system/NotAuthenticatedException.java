package io.perflab.system;

/**
 * The caller's credentials do not hold (any more), e.g. an API token revoked while its request waited: the API
 * answers 401, as it answers a request that comes with that token.
 */
public class NotAuthenticatedException extends RuntimeException {

    public NotAuthenticatedException(String message) {
        super(message);
    }
}
