package io.perflab.security;

import java.util.List;
import java.util.Optional;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * Accepts API tokens created in the dashboard or with {@code perflab token create}. A token of role USER uploads and
 * writes, but does not manage tokens or delete; one of role AGENT only acts as a benchmark agent. A revoked token is
 * refused with a message saying so. The authentication's details are the token's {@link StoredToken}, for work that
 * checks the token again as it acts.
 */
final class StoredTokenAuthenticator implements ApiTokenAuthenticator {

    private final ApiTokens tokens;

    StoredTokenAuthenticator(ApiTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public Optional<Authentication> authenticate(String secret) {
        if (!secret.startsWith(ApiTokens.PREFIX)) {
            return Optional.empty();
        }
        return tokens.use(secret).map(token -> {
            if (token.revoked()) {
                throw new BadCredentialsException(token.refusal());
            }
            UsernamePasswordAuthenticationToken authenticated = UsernamePasswordAuthenticationToken.authenticated(
                    "token:" + token.name(), null, List.of(new SimpleGrantedAuthority("ROLE_" + token.role())));
            authenticated.setDetails(new StoredToken(token.id()));
            return authenticated;
        });
    }
}
