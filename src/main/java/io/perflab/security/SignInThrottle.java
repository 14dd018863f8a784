package io.perflab.security;

import io.perflab.system.PrintableText;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Slows down and then locks password guessing, per user name and per client address (whichever is worse):
 * after {@value #FREE_FAILURES} failures in a row each further attempt must wait, the first a second after the last
 * failure and each next one twice as long as the one before (1 s, 2 s, 4 s, … at most a minute); after
 * {@value #LOCK_AFTER} failures sign-in is locked for {@link #LOCK_TIME}. An attempt counts as a failure from the
 * moment it is let through, before its password is checked, and a success clears the user's and the address's count:
 * so guesses sent at once cannot all pass before the first of them fails, and at most {@value #FREE_FAILURES} of them
 * have their password checked before the first wait. Nothing sleeps: an attempt that comes too early is refused with
 * how long to wait. Locking is logged once per lock.
 *
 * <p>The counts live in the database ({@link SignInFailures}), so every service instance on it throttles the same
 * guesser and a restart forgets nothing. An attempt reads and counts two rows by their key, locked together. Failures
 * older than {@link #FORGET_AFTER} are forgotten, and at most about {@value #MAX_TRACKED} users and addresses are
 * tracked (the least recently failed are forgotten), so guessing cannot fill the database; each instance tidies up
 * at most once every {@link #TIDY_EVERY}, when a failure comes.
 */
@Component
class SignInThrottle {

    /** Failures in a row that cost nothing: the attempt after them waits. */
    static final int FREE_FAILURES = 3;
    static final int LOCK_AFTER = 10;
    static final Duration LOCK_TIME = Duration.ofMinutes(15);
    static final Duration MAX_DELAY = Duration.ofMinutes(1);
    static final int MAX_TRACKED = 10_000;
    static final Duration FORGET_AFTER = Duration.ofDays(1);
    static final Duration TIDY_EVERY = Duration.ofMinutes(1);

    /** Longer names and addresses are cut: no stored user name is this long, so no two users share a count. */
    static final int MAX_NAME = 200;

    private static final Logger log = LoggerFactory.getLogger(SignInThrottle.class);

    private final SignInFailures failures;
    private final Clock clock;
    private final AtomicReference<Instant> nextTidy = new AtomicReference<>(Instant.MIN);

    SignInThrottle(SignInFailures failures, Clock clock) {
        this.failures = failures;
        this.clock = clock;
    }

    /**
     * Lets an attempt of {@code user} from {@code address} through and counts it as a failure, before its password is
     * checked, or refuses it (counting nothing) with how long it must wait. End each attempt let through with {@link
     * #succeeded} or {@link #failed}.
     */
    Optional<Duration> attempt(String user, String address) {
        Instant now = clock.instant();
        return failures.attempt(userKey(user), addressKey(address), now, stored -> wait(stored, now));
    }

    /** How long after {@code now} the next attempt on keys with these failures must wait, if at all. */
    private static Optional<Duration> wait(List<SignInFailures.Failures> stored, Instant now) {
        Instant notBefore = null;
        for (SignInFailures.Failures key : stored) {
            Instant next = key.lastFailure().plus(delay(key.count()));
            if (notBefore == null || next.isAfter(notBefore)) {
                notBefore = next;
            }
        }
        return notBefore != null && notBefore.isAfter(now) ? Optional.of(Duration.between(now, notBefore))
                : Optional.empty();
    }

    /**
     * An attempt let through failed (it was counted then): logs a lock it brought, naming the user and the address
     * {@link PrintableText.Validator#quoted quoted} (a line break or an escape in a name sent to the sign-in form
     * would forge lines of the log or act on the terminal that shows it), and tidies up.
     */
    void failed(String user, String address) {
        noticeLock(userKey(user), "user '" + PrintableText.Validator.quoted(user) + "'");
        noticeLock(addressKey(address), "address " + PrintableText.Validator.quoted(address));
        tidy(clock.instant());
    }

    /** An attempt let through succeeded: clears the user's and the address's count. */
    void succeeded(String user, String address) {
        failures.clear(userKey(user), addressKey(address));
    }

    /** Forgets every failure: unlocks everyone (for an operator, and for tests that share a server). */
    void forget() {
        failures.clearAll();
    }

    private void noticeLock(String key, String who) {
        if (failures.firstToSeeLock(key, LOCK_AFTER)) {
            log.warn("Sign-in for {} is locked for {} min after {} failed attempts in a row", who,
                    LOCK_TIME.toMinutes(), LOCK_AFTER);
        }
    }

    /**
     * How long after the last of {@code count} failures in a row the next attempt may come: none up to
     * {@value #FREE_FAILURES}, then 1 s, doubling with each failure, at most {@link #MAX_DELAY}.
     */
    static Duration delay(int count) {
        if (count >= LOCK_AFTER) {
            return LOCK_TIME;
        }
        if (count >= FREE_FAILURES) {
            return Duration.ofSeconds(Math.min(MAX_DELAY.toSeconds(), 1L << (count - FREE_FAILURES)));
        }
        return Duration.ZERO;
    }

    private void tidy(Instant now) {
        Instant due = nextTidy.get();
        if (now.isBefore(due) || !nextTidy.compareAndSet(due, now.plus(TIDY_EVERY))) {
            return;
        }
        int forgotten = failures.expire(now.minus(FORGET_AFTER), MAX_TRACKED);
        if (forgotten > 0) {
            log.debug("Forgot the failed sign-ins of {} users and addresses", forgotten);
        }
    }

    private static String userKey(String user) {
        return "user:" + cut(user == null ? "" : user.toLowerCase(Locale.ROOT));
    }

    private static String addressKey(String address) {
        return "address:" + cut(address);
    }

    /**
     * At most {@value #MAX_NAME} characters, control characters replaced: NUL, which PostgreSQL's text refuses, and
     * line breaks, so that a key stays one line of text.
     */
    private static String cut(String text) {
        String cut = text == null || text.length() <= MAX_NAME ? String.valueOf(text) : text.substring(0, MAX_NAME);
        return cut.replaceAll("\\p{Cntrl}", "\uFFFD");
    }
}
