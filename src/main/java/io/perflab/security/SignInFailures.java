package io.perflab.security;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Failed password sign-ins per throttled key in table {@code sign_in_failure}, shared by every service instance on
 * the database. An attempt is counted before its password is checked, for both of its keys (the user's and the
 * address's) in one short transaction that reads their rows locked, decides, and raises their counts: attempts
 * racing on a key, on one instance or several, each see the count the one before them left, so no two of them pass
 * on one count. A key's first attempt is an insert; one that meets another instance's insert on the primary key
 * runs again, on the row that instance stored.
 */
@Repository
class SignInFailures {

    /** How often an attempt is tried again after racing another on a key's first row, or losing a lock. */
    static final int MAX_RACES = 5;

    /** The failures of one key in a row, and when the last of them was. */
    record Failures(String key, int count, Instant lastFailure) {
    }

    private static final String SELECT = "SELECT throttle_key, failures, last_failure FROM sign_in_failure "
            + "WHERE throttle_key IN (?, ?)";

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;

    SignInFailures(JdbcClient jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.transactions = new TransactionTemplate(transactionManager);
    }

    /** The stored failures of these keys (those that have any), by their primary key. */
    List<Failures> find(String firstKey, String secondKey) {
        return jdbc.sql(SELECT).params(firstKey, secondKey).query(SignInFailures::failures).list();
    }

    /**
     * Counts an attempt at {@code at} as one more failure of both keys, unless {@code refusal}, given their stored
     * failures, says how long the attempt must wait; that wait, or empty when the attempt was counted. The rows stay
     * locked from the read to the count, so no other attempt on these keys decides on the count this one raises.
     * The last failure's time never goes back.
     */
    Optional<Duration> attempt(String firstKey, String secondKey, Instant at,
                               Function<List<Failures>, Optional<Duration>> refusal) {
        OffsetDateTime time = timestamp(at);
        for (int race = 1; ; race++) {
            try {
                return transactions.execute(status -> {
                    // locked in key order, so that two attempts on the same two keys cannot wait for each other
                    List<Failures> stored = jdbc.sql(SELECT + " ORDER BY throttle_key FOR UPDATE")
                            .params(firstKey, secondKey).query(SignInFailures::failures).list();
                    Optional<Duration> wait = refusal.apply(stored);
                    if (wait.isEmpty()) {
                        count(firstKey, stored, time);
                        if (!secondKey.equals(firstKey)) {
                            count(secondKey, stored, time);
                        }
                    }
                    return wait;
                });
            } catch (DuplicateKeyException | PessimisticLockingFailureException raced) {
                // another instance stored a key's first failure, or held its row, meanwhile: decide again on its count
                if (race == MAX_RACES) {
                    throw new IllegalStateException("Could not count a sign-in attempt of " + firstKey + " and "
                            + secondKey + ": " + MAX_RACES + " tries in a row raced other attempts on them", raced);
                }
            }
        }
    }

    /**
     * One more failure of {@code key} on the row read and locked, or a first one: never an update of a row that a
     * later statement would see but the decision did not (each statement of a transaction reads what is committed
     * when it starts).
     */
    private void count(String key, List<Failures> stored, OffsetDateTime time) {
        if (stored.stream().noneMatch(failures -> failures.key().equals(key))) {
            jdbc.sql("INSERT INTO sign_in_failure (throttle_key, failures, last_failure) VALUES (?, 1, ?)")
                    .params(key, time).update();
        } else if (!increment(key, time)) {
            throw new IllegalStateException("The locked sign-in failures of " + key + " went missing");
        }
    }

    private boolean increment(String key, OffsetDateTime time) {
        return jdbc.sql("""
                UPDATE sign_in_failure SET failures = failures + 1,
                    last_failure = CASE WHEN last_failure < ? THEN ? ELSE last_failure END
                WHERE throttle_key = ?""").params(time, time, key).update() == 1;
    }

    /**
     * True for exactly one caller once {@code key} has at least {@code failures} failures, whichever instance asks:
     * so that a lock is logged once.
     */
    boolean firstToSeeLock(String key, int failures) {
        return jdbc.sql("""
                UPDATE sign_in_failure SET lock_logged = TRUE
                WHERE throttle_key = ? AND failures >= ? AND lock_logged = FALSE""")
                .params(key, failures).update() == 1;
    }

    /** Forgets the failures of these keys (a success). */
    void clear(String firstKey, String secondKey) {
        jdbc.sql("DELETE FROM sign_in_failure WHERE throttle_key IN (?, ?)").params(firstKey, secondKey).update();
    }

    /** Forgets every failure. */
    void clearAll() {
        jdbc.sql("DELETE FROM sign_in_failure").update();
    }

    /**
     * Deletes the keys whose last failure was before {@code before}, then those older than the {@code keep} keys of
     * the most recent failures (keys tied with the last one kept stay); returns how many rows went.
     */
    int expire(Instant before, int keep) {
        if (keep < 1) {
            throw new IllegalArgumentException("keep: " + keep + " keys; need ≥ 1");
        }
        int deleted = jdbc.sql("DELETE FROM sign_in_failure WHERE last_failure < ?").param(timestamp(before)).update();
        OffsetDateTime oldestKept = jdbc.sql("""
                SELECT last_failure FROM sign_in_failure ORDER BY last_failure DESC
                OFFSET ? ROWS FETCH NEXT 1 ROWS ONLY""").param(keep - 1).query(OffsetDateTime.class).optional()
                .orElse(null);
        if (oldestKept != null) {
            deleted += jdbc.sql("DELETE FROM sign_in_failure WHERE last_failure < ?").param(oldestKept).update();
        }
        return deleted;
    }

    /** How many keys have failures stored. */
    long count() {
        return jdbc.sql("SELECT COUNT(*) FROM sign_in_failure").query(Long.class).single();
    }

    private static Failures failures(ResultSet rs, int row) throws SQLException {
        return new Failures(rs.getString("throttle_key"), rs.getInt("failures"),
                rs.getObject("last_failure", OffsetDateTime.class).toInstant());
    }

    private static OffsetDateTime timestamp(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
