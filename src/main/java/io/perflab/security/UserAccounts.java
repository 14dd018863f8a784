package io.perflab.security;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Dashboard users in table {@code app_user}. */
@Repository
public class UserAccounts {

    /** Roles a user can have; admins also manage tokens and delete experiments. */
    public enum Role { ADMIN, USER }

    /** A stored user. */
    public record UserAccount(long id, String username, String passwordHash, Role role) {
    }

    private final JdbcClient jdbc;
    private final Clock clock;

    UserAccounts(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    public long count() {
        return jdbc.sql("SELECT COUNT(*) FROM app_user").query(Long.class).single();
    }

    public Optional<UserAccount> findByUsername(String username) {
        return jdbc.sql("SELECT id, username, password_hash, role FROM app_user WHERE username = ?")
                .param(username)
                .query((rs, n) -> new UserAccount(rs.getLong("id"), rs.getString("username"),
                        rs.getString("password_hash"), Role.valueOf(rs.getString("role"))))
                .optional();
    }

    public void create(String username, String passwordHash, Role role) {
        jdbc.sql("INSERT INTO app_user (username, password_hash, role, created_at) VALUES (?, ?, ?, ?)")
                .params(username, passwordHash, role.name(), OffsetDateTime.now(clock))
                .update();
    }
}
