package io.perflab.experiment;

import org.springframework.security.core.Authentication;

/**
 * Who asks to cancel, resume or re-run an experiment, as {@link ExperimentService} decides whether they started it.
 *
 * @param name the name what they start is recorded under ({@code experiment.created_by}): a user's name, or
 *     {@code token:} and an API token's name
 * @param admin an administrator: a signed-in ADMIN or the bootstrap token
 */
public record ExperimentCaller(String name, boolean admin) {

    /** The caller {@code authentication} signed in. */
    public static ExperimentCaller of(Authentication authentication) {
        return new ExperimentCaller(authentication.getName(), ExperimentApiController.isAdmin(authentication));
    }

    /** Whether {@code principal} (a user's name, or {@code token:NAME}) is this caller. */
    boolean is(String principal) {
        return principal.equals(name);
    }
}
