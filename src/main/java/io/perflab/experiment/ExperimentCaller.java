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

    /**
     * Whether this caller may cancel, resume and re-run an experiment started by {@code startedBy} (a user's name, or
     * {@code token:NAME}; null where it was not recorded): an administrator any, anyone else only their own. What an
     * API token starts is that token's: a token acts for no user, since an administrator makes every token (a CI
     * system's token given its maker's experiments would control an administrator's). An experiment that does not
     * record who started it (from before that was recorded) is an administrator's.
     */
    public boolean controls(String startedBy) {
        return admin || name.equals(startedBy);
    }
}
