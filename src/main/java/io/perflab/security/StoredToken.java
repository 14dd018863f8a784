package io.perflab.security;

import org.springframework.security.core.Authentication;

/**
 * The stored API token a request authenticated with, kept as its authentication's details: work that acts later
 * than the request was authenticated (a long poll, a post that waits for a lock) checks with
 * {@link ApiTokens#refusal(long)} that the token still holds.
 *
 * @param id the token's id in {@code api_token}
 */
public record StoredToken(long id) {

    /** The id of the stored token {@code authentication} came with, or null (a user, the bootstrap token). */
    public static Long idOf(Authentication authentication) {
        return authentication != null && authentication.getDetails() instanceof StoredToken token ? token.id() : null;
    }
}
