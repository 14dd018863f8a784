package io.perflab.security;

import java.util.Optional;
import org.springframework.security.core.Authentication;

/**
 * Checks a bearer token presented on {@code /api/**}. Each source of tokens (the bootstrap token, stored API
 * tokens) is one implementation; the filter asks them in order.
 */
public interface ApiTokenAuthenticator {

    /**
     * Returns the authentication for {@code token}, empty if this authenticator does not know it.
     *
     * @throws org.springframework.security.authentication.BadCredentialsException if it knows the token but
     *     refuses it (for example a revoked token), with a message for the caller
     */
    Optional<Authentication> authenticate(String token);
}
