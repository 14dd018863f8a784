package io.perflab.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Slows down and then locks password guessing, per user name and per client address (whichever is worse):
 * after {@value #FREE_FAILURES} failures in a row each further attempt must wait twice as long as the one before
 * (1 s, 2 s, 4 s, … at most a minute); after {@value #LOCK_AFTER} failures sign-in is locked for
 * {@link #LOCK_TIME}. A success clears the user's and the address's count. Nothing sleeps: an attempt that comes
 * too early is refused with how long to wait. Locking is logged once per lock. At most
 * {@value #MAX_TRACKED} users and addresses are tracked (the oldest are forgotten), so guessing cannot fill memory.
 */
@Component
class SignInThrottle {

    static final int FREE_FAILURES = 3;
    static final int LOCK_AFTER = 10;
    static final Duration LOCK_TIME = Duration.ofMinutes(15);
    static final Duration MAX_DELAY = Duration.ofMinutes(1);
    static final int MAX_TRACKED = 10_000;

    private static final Logger log = LoggerFactory.getLogger(SignInThrottle.class);

    /** Consecutive failures of one key and when the next attempt may come. */
    /** Forgets every failure: unlocks everyone (for an operator, and for tests that share a server). */
    synchronized void forget() {
        failures.clear();
    }

    private record Failures(int count, Instant notBefore) {
    }

    private final Clock clock;
    private final Map<String, Failures> failures = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Failures> eldest) {
            return size() > MAX_TRACKED;
        }
    };

    SignInThrottle(Clock clock) {
        this.clock = clock;
    }

    /** How long {@code user} from {@code address} must wait before trying again, if at all. */
    synchronized Optional<Duration> wait(String user, String address) {
        Instant now = clock.instant();
        Instant notBefore = later(failures.get(userKey(user)), failures.get(addressKey(address)));
        return notBefore != null && notBefore.isAfter(now) ? Optional.of(Duration.between(now, notBefore))
                : Optional.empty();
    }

    synchronized void failed(String user, String address) {
        record(userKey(user), "user '" + user + "'");
        record(addressKey(address), "address " + address);
    }

    synchronized void succeeded(String user, String address) {
        failures.remove(userKey(user));
        failures.remove(addressKey(address));
    }

    private void record(String key, String who) {
        int count = failures.containsKey(key) ? failures.get(key).count() + 1 : 1;
        Duration delay;
        if (count >= LOCK_AFTER) {
            delay = LOCK_TIME;
            if (count == LOCK_AFTER) {
                log.warn("Sign-in for {} is locked for {} min after {} failed attempts in a row", who,
                        LOCK_TIME.toMinutes(), count);
            }
        } else if (count > FREE_FAILURES) {
            long seconds = Math.min(MAX_DELAY.toSeconds(), 1L << (count - FREE_FAILURES - 1));
            delay = Duration.ofSeconds(seconds);
        } else {
            delay = Duration.ZERO;
        }
        failures.put(key, new Failures(count, clock.instant().plus(delay)));
    }

    private static Instant later(Failures a, Failures b) {
        if (a == null) {
            return b == null ? null : b.notBefore();
        }
        return b == null || a.notBefore().isAfter(b.notBefore()) ? a.notBefore() : b.notBefore();
    }

    private static String userKey(String user) {
        return "user:" + (user == null ? "" : user.toLowerCase(java.util.Locale.ROOT));
    }

    private static String addressKey(String address) {
        return "address:" + address;
    }
}
