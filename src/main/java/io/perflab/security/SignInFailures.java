package io.perflab.security;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Failed password sign-ins per throttled key in table {@code sign_in_failure}, shared by every service instance on
 * the database. Each write is one statement, so instances racing on one key neither lose a failure nor store a key
 * twice: a failure is an atomic {@code failures = failures + 1}, and the first failure of a key an insert whose
 * primary key turns a concurrent insert into that increment.
 */
@Repository
class SignInFailures {

    /** The failures of one key in a row, and when the last of them was. */
    record Failures(String key, int count, Instant lastFailure) {
    }

    private final JdbcClient jdbc;

    SignInFailures(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The stored failures of these keys (those that have any), by their primary key. */
    List<Failures> find(String firstKey, String secondKey) {
        return jdbc.sql("SELECT throttle_key, failures, last_failure FROM sign_in_failure WHERE throttle_key IN (?, ?)")
                .params(firstKey, secondKey)
                .query((rs, n) -> new Failures(rs.getString("throttle_key"), rs.getInt("failures"),
                        rs.getObject("last_failure", OffsetDateTime.class).toInstant()))
                .list();
    }

    /** Counts one more failure of {@code key} at {@code at}; the last failure's time never goes back. */
    void add(String key, Instant at) {
        OffsetDateTime time = timestamp(at);
        for (int attempt = 0; attempt < 3; attempt++) {
            if (increment(key, time)) {
                return;
            }
            try {
                jdbc.sql("INSERT INTO sign_in_failure (throttle_key, failures, last_failure) VALUES (?, 1, ?)")
                        .params(key, time).update();
                return;
            } catch (DuplicateKeyException raced) {
                // another instance stored the key's first failure since; count this one on top of it
            }
        }
        // the row keeps being deleted (a success) and stored again between the two statements; count on top of it
        if (!increment(key, time)) {
            throw new IllegalStateException("Could not count a failed sign-in of " + key);
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

    private static OffsetDateTime timestamp(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
