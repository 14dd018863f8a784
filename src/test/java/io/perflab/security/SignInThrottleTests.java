package io.perflab.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SignInThrottleTests {

    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private final SignInThrottle throttle = new SignInThrottle(new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    });

    @Test
    void aFewMistakesCostNothingThenEachAttemptWaitsTwiceAsLong() {
        for (int i = 0; i < SignInThrottle.FREE_FAILURES; i++) {
            assertThat(throttle.wait("admin", "10.0.0.1")).isEmpty();
            throttle.failed("admin", "10.0.0.1");
        }
        assertThat(throttle.wait("admin", "10.0.0.1")).isEmpty();
        throttle.failed("admin", "10.0.0.1");
        assertThat(throttle.wait("admin", "10.0.0.1")).contains(Duration.ofSeconds(1));
        now = now.plusSeconds(1);
        throttle.failed("admin", "10.0.0.1");
        assertThat(throttle.wait("admin", "10.0.0.1")).contains(Duration.ofSeconds(2));
    }

    @Test
    void tenFailuresLockTheUserFromAnyAddressAndTheAddressForAnyUser() {
        for (int i = 0; i < SignInThrottle.LOCK_AFTER; i++) {
            now = now.plus(SignInThrottle.MAX_DELAY);
            throttle.failed("admin", "10.0.0.1");
        }
        assertThat(throttle.wait("ADMIN", "192.168.1.9")).contains(SignInThrottle.LOCK_TIME);
        assertThat(throttle.wait("someone", "10.0.0.1")).contains(SignInThrottle.LOCK_TIME);
        assertThat(throttle.wait("someone", "192.168.1.9")).isEmpty();
        now = now.plus(SignInThrottle.LOCK_TIME);
        assertThat(throttle.wait("admin", "10.0.0.1")).isEmpty();
    }

    @Test
    void aSuccessClearsTheCount() {
        for (int i = 0; i < 5; i++) {
            throttle.failed("admin", "10.0.0.1");
        }
        throttle.succeeded("admin", "10.0.0.1");
        assertThat(throttle.wait("admin", "10.0.0.1")).isEmpty();
    }
}
