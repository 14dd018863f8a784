package io.perflab.security;

import io.perflab.system.PerfLabProperties;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** Accepts {@code perflab.security.bootstrap-token}, when configured, as an admin token. */
final class BootstrapTokenAuthenticator implements ApiTokenAuthenticator {

    static final String PRINCIPAL = "bootstrap-token";

    private final byte[] expected;

    BootstrapTokenAuthenticator(PerfLabProperties.Security security) {
        this.expected = security.hasBootstrapToken() ? security.bootstrapToken().getBytes(StandardCharsets.UTF_8)
                : null;
    }

    @Override
    public Optional<Authentication> authenticate(String token) {
        if (expected == null || !MessageDigest.isEqual(expected, token.getBytes(StandardCharsets.UTF_8))) {
            return Optional.empty();
        }
        return Optional.of(UsernamePasswordAuthenticationToken.authenticated(PRINCIPAL, null,
                List.of(new SimpleGrantedAuthority("ROLE_ADMIN"), new SimpleGrantedAuthority("ROLE_USER"))));
    }
}
