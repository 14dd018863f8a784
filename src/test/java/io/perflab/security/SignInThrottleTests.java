package io.perflab.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The sign-in throttle on the real schema (Flyway's migrations), on H2 here and on PostgreSQL in a subclass. Two
 * throttles with a connection pool each stand for two service instances on one database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SignInThrottleTests {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    };

    private HikariDataSource instanceOne;
    private HikariDataSource instanceTwo;
    private SignInFailures failures;
    private SignInThrottle throttle;
    private SignInThrottle otherInstance;

    /** The JDBC URL, user and password of a new, empty database. */
    String[] newDatabase() {
        return new String[] {"jdbc:h2:mem:sign-in-throttle-" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1",
                "sa", ""};
    }

    @BeforeAll
    void migrate() {
        String[] database = newDatabase();
        instanceOne = pool(database);
        instanceTwo = pool(database);
        Flyway.configure().dataSource(instanceOne).load().migrate();
        failures = new SignInFailures(JdbcClient.create(instanceOne));
        throttle = new SignInThrottle(failures, clock);
        otherInstance = new SignInThrottle(new SignInFailures(JdbcClient.create(instanceTwo)), clock);
    }

    private static HikariDataSource pool(String[] database) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(database[0]);
        pool.setUsername(database[1]);
        pool.setPassword(database[2]);
        pool.setMaximumPoolSize(4);
        return pool;
    }

    @AfterAll
    void close() {
        instanceTwo.close();
        instanceOne.close();
    }

    @BeforeEach
    void forgetEveryone() {
        throttle.forget();
    }

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
        assertThat(failures.count()).isZero();
    }

    @Test
    void twoInstancesOnOneDatabaseShareTheCountAndItOutlivesThem() {
        for (int i = 0; i < SignInThrottle.LOCK_AFTER; i++) {
            now = now.plus(SignInThrottle.MAX_DELAY);
            // a load balancer sends every other guess to the other instance
            (i % 2 == 0 ? throttle : otherInstance).failed("admin", "10.0.0." + i);
        }

        assertThat(throttle.wait("admin", "192.168.1.9")).contains(SignInThrottle.LOCK_TIME);
        assertThat(otherInstance.wait("admin", "192.168.1.9")).contains(SignInThrottle.LOCK_TIME);
        SignInThrottle restarted = new SignInThrottle(new SignInFailures(JdbcClient.create(instanceTwo)), clock);
        assertThat(restarted.wait("admin", "192.168.1.9")).contains(SignInThrottle.LOCK_TIME);

        otherInstance.succeeded("admin", "192.168.1.9");
        assertThat(throttle.wait("admin", "192.168.1.9")).isEmpty();
    }

    /** Guesses racing through both instances, most of them on a key no instance has stored yet: none is lost. */
    @Test
    void concurrentFailuresOnBothInstancesAreEachCountedAndTheLockIsNoticedOnce() throws Exception {
        SignInFailures otherFailures = new SignInFailures(JdbcClient.create(instanceTwo));
        int threads = 8;
        int failuresPerThread = 25;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger lockNotices = new AtomicInteger();
        List<Future<?>> done = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                SignInFailures instance = t % 2 == 0 ? failures : otherFailures;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < failuresPerThread; i++) {
                        instance.add("user:racer-" + i, now);
                        if (instance.firstToSeeLock("user:racer-" + i, SignInThrottle.LOCK_AFTER)) {
                            lockNotices.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> thread : done) {
                thread.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        for (int i = 0; i < failuresPerThread; i++) {
            assertThat(failures.find("user:racer-" + i, "address:none")).singleElement()
                    .satisfies(stored -> assertThat(stored.count()).isEqualTo(threads));
        }
        assertThat(lockNotices).as("no key reached %d failures", SignInThrottle.LOCK_AFTER).hasValue(0);
        for (int t = 0; t < SignInThrottle.LOCK_AFTER - threads; t++) {
            failures.add("user:racer-0", now);
        }
        assertThat(failures.firstToSeeLock("user:racer-0", SignInThrottle.LOCK_AFTER)).isTrue();
        assertThat(otherFailures.firstToSeeLock("user:racer-0", SignInThrottle.LOCK_AFTER)).isFalse();
    }

    @Test
    void oldFailuresAreForgottenAndOnlyTheMostRecentKeysAreKept() {
        failures.add("user:old", now);
        now = now.plus(SignInThrottle.FORGET_AFTER).plusSeconds(1);
        for (int i = 0; i < 5; i++) {
            now = now.plusSeconds(1);
            failures.add("user:recent-" + i, now);
        }

        assertThat(failures.expire(now.minus(SignInThrottle.FORGET_AFTER), 3)).isEqualTo(3);

        assertThat(failures.find("user:old", "user:recent-0")).isEmpty();
        assertThat(failures.find("user:recent-1", "user:recent-2")).extracting(SignInFailures.Failures::key)
                .containsExactly("user:recent-2");
        assertThat(failures.count()).isEqualTo(3);
    }

    @Test
    void aFailureForgetsTheFailuresOfADayAgo() {
        throttle.failed("admin", "10.0.0.1");
        now = now.plus(SignInThrottle.FORGET_AFTER).plus(SignInThrottle.TIDY_EVERY);

        otherInstance.failed("someone", "10.0.0.2");

        assertThat(failures.find("user:admin", "address:10.0.0.1")).isEmpty();
        assertThat(failures.count()).isEqualTo(2);
    }

    @Test
    void longAndOddNamesAreCountedUnderAKeyThatFits() {
        String name = "x".repeat(10_000) + "\0";
        for (int i = 0; i <= SignInThrottle.FREE_FAILURES; i++) {
            throttle.failed(name, "10.0.0.1\0");
        }

        assertThat(otherInstance.wait(name + "y", "10.0.0.1\0")).contains(Duration.ofSeconds(1));
        assertThat(failures.count()).isEqualTo(2);
    }

    @Test
    void aNameWithLineBreaksIsKeptAsOneLineWithoutControlCharacters() {
        String forged = "eve\r\n2026-12-01 WARN Sign-in for user 'admin' is locked";
        for (int i = 0; i < SignInThrottle.LOCK_AFTER; i++) {
            throttle.failed(forged, "10.0.0.9");
        }

        assertThat(otherInstance.wait(forged, "10.0.0.9")).isPresent();
        assertThat(failures.find("user:eve\uFFFD\uFFFD2026-12-01 warn sign-in for user 'admin' is locked",
                "address:10.0.0.9")).hasSize(2).allSatisfy(f -> assertThat(f.key()).doesNotContain("\r", "\n"));
    }
}
