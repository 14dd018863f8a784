package io.perflab.security;

import java.time.Duration;
import java.util.Optional;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.LockedException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.authentication.WebAuthenticationDetails;

/** Password sign-in (the form and HTTP Basic) through {@link SignInThrottle}. */
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
        Optional<Duration> wait = throttle.wait(user, address);
        if (wait.isPresent()) {
            throw new LockedException("Too many failed sign-ins for this user or from this address: try again in "
                    + seconds(wait.get()) + ".");
        }
        try {
            Authentication authenticated = passwords.authenticate(attempt);
            throttle.succeeded(user, address);
            return authenticated;
        } catch (BadCredentialsException e) {
            throttle.failed(user, address);
            throw e;
        }
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
