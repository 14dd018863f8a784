package io.perflab.security;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;

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
        failures = failures(instanceOne);
        throttle = new SignInThrottle(failures, clock);
        otherInstance = new SignInThrottle(failures(instanceTwo), clock);
    }

    /** The failures store of a service instance whose connection pool is {@code pool}. */
    private static SignInFailures failures(HikariDataSource pool) {
        return new SignInFailures(JdbcClient.create(pool), new JdbcTransactionManager(pool));
    }

    /** An attempt that is let through and whose password turns out wrong. */
    private void fail(SignInThrottle instance, String user, String address) {
        assertThat(instance.attempt(user, address)).as("attempt of %s from %s", user, address).isEmpty();
        instance.failed(user, address);
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

    /**
     * README: sign-in slows down after 3 wrong passwords in a row. The fourth attempt was let through too, and only
     * the fifth waited.
     */
    @Test
    void threeMistakesCostNothingThenEachAttemptWaitsTwiceAsLong() {
        assertThat(SignInThrottle.FREE_FAILURES).isEqualTo(3);
        fail(throttle, "admin", "10.0.0.1");
        fail(throttle, "admin", "10.0.0.1");
        fail(throttle, "admin", "10.0.0.1");
        assertThat(throttle.attempt("admin", "10.0.0.1")).as("the fourth attempt").contains(Duration.ofSeconds(1));
        now = now.plusSeconds(1);
        fail(throttle, "admin", "10.0.0.1");
        assertThat(throttle.attempt("admin", "10.0.0.1")).contains(Duration.ofSeconds(2));
        assertThat(failures.find("user:admin", "address:10.0.0.1")).as("refused attempts are not counted")
                .allSatisfy(stored -> assertThat(stored.count()).isEqualTo(4));
        assertThat(java.util.stream.IntStream.rangeClosed(0, SignInThrottle.LOCK_AFTER)
                .mapToObj(SignInThrottle::delay).map(Duration::toSeconds).toList())
                .containsExactly(0L, 0L, 0L, 1L, 2L, 4L, 8L, 16L, 32L, 60L, SignInThrottle.LOCK_TIME.toSeconds());
    }

    @Test
    void tenFailuresLockTheUserFromAnyAddressAndTheAddressForAnyUser() {
        for (int i = 0; i < SignInThrottle.LOCK_AFTER; i++) {
            now = now.plus(SignInThrottle.MAX_DELAY);
            fail(throttle, "admin", "10.0.0.1");
        }
        assertThat(throttle.attempt("ADMIN", "192.168.1.9")).contains(SignInThrottle.LOCK_TIME);
        assertThat(throttle.attempt("someone", "10.0.0.1")).contains(SignInThrottle.LOCK_TIME);
        assertThat(throttle.attempt("someone", "192.168.1.9")).isEmpty();
        now = now.plus(SignInThrottle.LOCK_TIME);
        assertThat(throttle.attempt("admin", "10.0.0.1")).isEmpty();
    }

    @Test
    void aSuccessClearsTheCount() {
        for (int i = 0; i < 5; i++) {
            now = now.plus(SignInThrottle.MAX_DELAY);
            fail(throttle, "admin", "10.0.0.1");
        }
        assertThat(throttle.attempt("admin", "10.0.0.1")).isPresent();
        now = now.plus(SignInThrottle.MAX_DELAY);
        assertThat(throttle.attempt("admin", "10.0.0.1")).isEmpty();
        throttle.succeeded("admin", "10.0.0.1");
        assertThat(failures.count()).isZero();
        // every attempt counts until it succeeds: successes in a row never add up to a wait
        for (int i = 0; i < SignInThrottle.LOCK_AFTER + 1; i++) {
            assertThat(throttle.attempt("admin", "10.0.0.1")).as("sign-in %d", i).isEmpty();
            throttle.succeeded("admin", "10.0.0.1");
        }
        assertThat(failures.count()).isZero();
    }

    @Test
    void twoInstancesOnOneDatabaseShareTheCountAndItOutlivesThem() {
        for (int i = 0; i < SignInThrottle.LOCK_AFTER; i++) {
            now = now.plus(SignInThrottle.MAX_DELAY);
            // a load balancer sends every other guess to the other instance
            fail(i % 2 == 0 ? throttle : otherInstance, "admin", "10.0.0." + i);
        }

        assertThat(throttle.attempt("admin", "192.168.1.9")).contains(SignInThrottle.LOCK_TIME);
        assertThat(otherInstance.attempt("admin", "192.168.1.9")).contains(SignInThrottle.LOCK_TIME);
        SignInThrottle restarted = new SignInThrottle(failures(instanceTwo), clock);
        assertThat(restarted.attempt("admin", "192.168.1.9")).contains(SignInThrottle.LOCK_TIME);

        otherInstance.succeeded("admin", "192.168.1.9");
        assertThat(throttle.attempt("admin", "192.168.1.9")).isEmpty();
    }

    /**
     * Guesses sent at once, through both instances, each password check lasting until every guess has been let
     * through or refused: only as many pass as the count allows, since each is counted before its password is
     * checked. Counted after the check, every guess that came before the first check ended passed.
     */
    @Test
    void guessesSentAtOnceToBothInstancesPassNoMoreThanTheCountAllows() throws Exception {
        int guesses = 40;
        ExecutorService pool = Executors.newFixedThreadPool(guesses);
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch decided = new CountDownLatch(guesses);
        AtomicInteger passwordChecks = new AtomicInteger();
        List<Future<Boolean>> refused = new ArrayList<>();
        try {
            for (int i = 0; i < guesses; i++) {
                SignInThrottle instance = i % 2 == 0 ? throttle : otherInstance;
                refused.add(pool.submit(() -> {
                    start.await();
                    boolean waits = instance.attempt("admin", "10.0.0.66").isPresent();
                    decided.countDown();
                    if (waits) {
                        return true;
                    }
                    passwordChecks.incrementAndGet();
                    // a slow (bcrypt) check of a wrong password: it ends after every other guess came
                    assertThat(decided.await(30, TimeUnit.SECONDS)).isTrue();
                    instance.failed("admin", "10.0.0.66");
                    return false;
                }));
            }
            start.countDown();
            int throttled = 0;
            for (Future<Boolean> guess : refused) {
                throttled += guess.get(60, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(throttled).isEqualTo(guesses - SignInThrottle.FREE_FAILURES);
        } finally {
            pool.shutdownNow();
        }

        assertThat(passwordChecks).hasValue(SignInThrottle.FREE_FAILURES);
        assertThat(failures.find("user:admin", "address:10.0.0.66")).hasSize(2)
                .allSatisfy(stored -> assertThat(stored.count()).isEqualTo(SignInThrottle.FREE_FAILURES));
        assertThat(otherInstance.attempt("admin", "10.0.0.66")).contains(Duration.ofSeconds(1));
        now = now.plusSeconds(1);
        assertThat(otherInstance.attempt("admin", "10.0.0.66")).as("the right password, a second later").isEmpty();
        otherInstance.succeeded("admin", "10.0.0.66");
        assertThat(throttle.attempt("admin", "10.0.0.66")).as("and again after that success").isEmpty();
        throttle.succeeded("admin", "10.0.0.66");
        assertThat(failures.count()).isZero();
    }

    /** Attempts racing through both instances, most of them on keys no instance has stored yet: none is lost. */
    @Test
    void concurrentAttemptsOnBothInstancesAreEachCountedAndTheLockIsNoticedOnce() throws Exception {
        SignInFailures otherFailures = failures(instanceTwo);
        int threads = 8;
        int keysPerThread = 25;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger lockNotices = new AtomicInteger();
        List<Future<?>> done = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                SignInFailures instance = t % 2 == 0 ? failures : otherFailures;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < keysPerThread; i++) {
                        assertThat(instance.attempt("user:racer-" + i, "address:racer-" + i, now,
                                stored -> Optional.empty())).isEmpty();
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

        for (int i = 0; i < keysPerThread; i++) {
            assertThat(failures.find("user:racer-" + i, "address:racer-" + i)).hasSize(2)
                    .allSatisfy(stored -> assertThat(stored.count()).isEqualTo(threads));
        }
        assertThat(lockNotices).as("no key reached %d failures", SignInThrottle.LOCK_AFTER).hasValue(0);
        for (int t = 0; t < SignInThrottle.LOCK_AFTER - threads; t++) {
            failures.attempt("user:racer-0", "address:racer-0", now, stored -> Optional.empty());
        }
        assertThat(failures.firstToSeeLock("user:racer-0", SignInThrottle.LOCK_AFTER)).isTrue();
        assertThat(otherFailures.firstToSeeLock("user:racer-0", SignInThrottle.LOCK_AFTER)).isFalse();
    }

    @Test
    void oldFailuresAreForgottenAndOnlyTheMostRecentKeysAreKept() {
        count("user:old");
        now = now.plus(SignInThrottle.FORGET_AFTER).plusSeconds(1);
        for (int i = 0; i < 5; i++) {
            now = now.plusSeconds(1);
            count("user:recent-" + i);
        }

        assertThat(failures.expire(now.minus(SignInThrottle.FORGET_AFTER), 3)).isEqualTo(3);

        assertThat(failures.find("user:old", "user:recent-0")).isEmpty();
        assertThat(failures.find("user:recent-1", "user:recent-2")).extracting(SignInFailures.Failures::key)
                .containsExactly("user:recent-2");
        assertThat(failures.count()).isEqualTo(3);
    }

    /** Counts an attempt of {@code key} alone, as the store's callers count a user's and an address's. */
    private void count(String key) {
        assertThat(failures.attempt(key, key, now, stored -> Optional.empty())).isEmpty();
    }

    @Test
    void aFailureForgetsTheFailuresOfADayAgo() {
        fail(throttle, "admin", "10.0.0.1");
        now = now.plus(SignInThrottle.FORGET_AFTER).plus(SignInThrottle.TIDY_EVERY);

        fail(otherInstance, "someone", "10.0.0.2");

        assertThat(failures.find("user:admin", "address:10.0.0.1")).isEmpty();
        assertThat(failures.count()).isEqualTo(2);
    }

    @Test
    void longAndOddNamesAreCountedUnderAKeyThatFits() {
        String name = "x".repeat(10_000) + "\0";
        for (int i = 0; i < SignInThrottle.FREE_FAILURES; i++) {
            fail(throttle, name, "10.0.0.1\0");
        }

        assertThat(otherInstance.attempt(name + "y", "10.0.0.1\0")).contains(Duration.ofSeconds(1));
        assertThat(failures.count()).isEqualTo(2);
    }

    @Test
    void aNameWithLineBreaksIsKeptAsOneLineWithoutControlCharacters() {
        String forged = "eve\r\n2026-12-01 WARN Sign-in for user 'admin' is locked";
        for (int i = 0; i < SignInThrottle.LOCK_AFTER; i++) {
            now = now.plus(SignInThrottle.MAX_DELAY);
            fail(throttle, forged, "10.0.0.9");
        }

        assertThat(otherInstance.attempt(forged, "10.0.0.9")).isPresent();
        assertThat(failures.find("user:eve\uFFFD\uFFFD2026-12-01 warn sign-in for user 'admin' is locked",
                "address:10.0.0.9")).hasSize(2).allSatisfy(f -> assertThat(f.key()).doesNotContain("\r", "\n"));
    }

    /**
     * The lock's warning named the user as the throttle keeps the name, its line breaks made U+FFFD (which says
     * neither which character it was nor that there was one) and an escape or a right-to-left override as they came,
     * acting on the terminal that shows the log or reordering the line. It quotes the name as messages do.
     */
    @Test
    void theLockWarningQuotesTheUserNameWithItsControlCharactersEscaped() {
        String forged = "eve\n2026-12-06 INFO admin signed in\u001B[2J\u202E";
        Logger logger = (Logger) LoggerFactory.getLogger(SignInThrottle.class);
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        logger.addAppender(log);
        try {
            for (int i = 0; i < SignInThrottle.LOCK_AFTER; i++) {
                now = now.plus(SignInThrottle.MAX_DELAY);
                fail(throttle, forged, "10.0.0.10");
            }
        } finally {
            logger.detachAppender(log);
        }

        assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                "Sign-in for user 'eve\\u000A2026-12-06 INFO admin signed in\\u001B[2J\\u202E' is locked for 15 min "
                        + "after 10 failed attempts in a row",
                "Sign-in for address 10.0.0.10 is locked for 15 min after 10 failed attempts in a row");
    }
}
