package io.perflab.security;

import java.time.Duration;
import java.util.Optional;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.LockedException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.authentication.WebAuthenticationDetails;

/**
 * Password sign-in (the form and HTTP Basic) through {@link SignInThrottle}: an attempt is let through and counted
 * before its password is checked, and every attempt that does not succeed stays counted as a failure.
 */
final class ThrottledAuthenticationProvider implements AuthenticationProvider {

    private final AuthenticationProvider passwords;
    private final SignInThrottle throttle;

    ThrottledAuthenticationProvider(AuthenticationProvider passwords, SignInThrottle throttle) {
        this.passwords = passwords;
        this.throttle = throttle;
    }

    @Override
    public Authentication authenticate(Authentication attempt) throws AuthenticationException {
        String user = attempt.getName();
        String address = attempt.getDetails() instanceof WebAuthenticationDetails web ? web.getRemoteAddress()
                : "unknown";
        // counted before the slow password check, so that guesses sent at once cannot all pass the throttle
        Optional<Duration> wait = throttle.attempt(user, address);
        if (wait.isPresent()) {
            throw new LockedException("Too many failed sign-ins for this user or from this address: try again in "
                    + seconds(wait.get()) + ".");
        }
        Authentication authenticated;
        try {
            authenticated = passwords.authenticate(attempt);
        } catch (AuthenticationException e) {
            throttle.failed(user, address);
            throw e;
        }
        throttle.succeeded(user, address);
        return authenticated;
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return passwords.supports(authentication);
    }

    private static String seconds(Duration wait) {
        long s = Math.max(1, (wait.toMillis() + 999) / 1000);
        return s < 120 ? s + " s" : (s + 59) / 60 + " min";
    }
}
