package io.perflab.experiment;

import io.perflab.security.StoredToken;
import org.springframework.security.core.Authentication;

/**
 * Who asks to cancel, resume or re-run an experiment, as {@link ExperimentService} decides whether they started it.
 *
 * @param name the name what they start is recorded under ({@code experiment.created_by}): a user's name, or
 *     {@code token:} and an API token's name
 * @param actsFor the user a stored API token acts for, the one who created it; null for anyone else
 * @param admin an administrator: a signed-in ADMIN or the bootstrap token
 */
public record ExperimentCaller(String name, String actsFor, boolean admin) {

    /** The caller {@code authentication} signed in. */
    public static ExperimentCaller of(Authentication authentication) {
        return new ExperimentCaller(authentication.getName(), StoredToken.ownerOf(authentication),
                ExperimentApiController.isAdmin(authentication));
    }

    /** Whether {@code principal} (a user's name, or {@code token:NAME}) is this caller or the user it acts for. */
    boolean is(String principal) {
        return principal.equals(name) || principal.equals(actsFor);
    }
}
