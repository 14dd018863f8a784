package io.perflab.security;

import java.util.Objects;
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

    /**
     * Whether a caller, {@code name} with stored token {@code tokenId}, is the one recorded as {@code recordedName}
     * with {@code recordedTokenId} (who registered an agent, who started an experiment): where either came with a
     * stored token, the same token, told by its id, not its name (a revoked token's name is free again, and a token
     * created anew with it is another token); otherwise the same name (a user, or the bootstrap token). Token ids are
     * null where there was none.
     */
    public static boolean sameCaller(String name, Long tokenId, String recordedName, Long recordedTokenId) {
        if (tokenId != null || recordedTokenId != null) {
            return Objects.equals(tokenId, recordedTokenId);
        }
        return Objects.equals(name, recordedName);
    }
}
