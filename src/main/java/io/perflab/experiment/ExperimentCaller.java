package io.perflab.experiment;

import io.perflab.security.StoredToken;
import org.springframework.security.core.Authentication;

/**
 * Who creates an experiment, or asks to cancel, resume or re-run one, as {@link ExperimentService} records who started
 * it and decides whether they did.
 *
 * @param name the name what they start is recorded under ({@code experiment.created_by}): a user's name, or
 *     {@code token:} and an API token's name
 * @param admin an administrator: a signed-in ADMIN or the bootstrap token
 * @param tokenId the stored API token they came with ({@code experiment.created_by_token} of what they start); null
 *     for a user and the bootstrap token
 */
public record ExperimentCaller(String name, boolean admin, Long tokenId) {

    /** A caller that came with no stored API token: a user, or the bootstrap token. */
    public ExperimentCaller(String name, boolean admin) {
        this(name, admin, null);
    }

    /** The caller {@code authentication} signed in. */
    public static ExperimentCaller of(Authentication authentication) {
        return new ExperimentCaller(authentication.getName(), ExperimentApiController.isAdmin(authentication),
                StoredToken.idOf(authentication));
    }

    /**
     * Whether this caller may cancel, resume and re-run an experiment started by {@code startedBy} (a user's name, or
     * {@code token:NAME}; null where it was not recorded) with stored token {@code startedByToken} (null: none): an
     * administrator any, anyone else only their own. What an API token starts is that token's, told by its id, not its
     * name ({@link StoredToken#sameCaller}): a token created with the name of a revoked one controls nothing the
     * revoked one started. A token acts for no user, since an administrator makes every token (a CI system's token
     * given its maker's experiments would control an administrator's). An experiment that does not record who started
     * it (from before that was recorded) is an administrator's.
     */
    public boolean controls(String startedBy, Long startedByToken) {
        return admin || StoredToken.sameCaller(name, tokenId, startedBy, startedByToken);
    }
}
