package io.perflab.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/** The dashboard's users in the real schema (Flyway's migrations), on H2 here and on PostgreSQL in a subclass. */
@DataJdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:user-accounts-tests;DB_CLOSE_DELAY=-1")
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({UserAccounts.class, UserAccountsTests.Clocks.class})
class UserAccountsTests {

    @TestConfiguration
    static class Clocks {
        @Bean
        Clock clock() {
            return Clock.systemUTC();
        }
    }

    @Autowired
    UserAccounts users;

    @Autowired
    JdbcClient jdbc;

    @Test
    void storesUsersAndFindsThemByNameWithTheirHashAndRole() {
        assertThat(users.count()).isZero();
        users.create("admin", "{bcrypt}$2a$10$hash-of-admin", UserAccounts.Role.ADMIN);
        users.create("ci", "{bcrypt}$2a$10$hash-of-ci", UserAccounts.Role.USER);

        assertThat(users.count()).isEqualTo(2);
        assertThat(users.findByUsername("admin")).hasValueSatisfying(admin -> {
            assertThat(admin.username()).isEqualTo("admin");
            assertThat(admin.passwordHash()).isEqualTo("{bcrypt}$2a$10$hash-of-admin");
            assertThat(admin.role()).isEqualTo(UserAccounts.Role.ADMIN);
        });
        assertThat(users.findByUsername("ci")).map(UserAccounts.UserAccount::role).contains(UserAccounts.Role.USER);
        assertThat(users.findByUsername("Admin")).as("names are exact").isEmpty();
        assertThat(users.findByUsername("nobody")).isEmpty();
    }

    /** Two instances creating admin at once meet this key (InitialAdminAccount): the second stores nothing. */
    @Test
    @Transactional(propagation = Propagation.NOT_SUPPORTED)
    void aSecondUserOfTheSameNameIsRefusedByTheKeyAndTheFirstStays() {
        try {
            users.create("race", "{noop}first", UserAccounts.Role.ADMIN);

            assertThatThrownBy(() -> users.create("race", "{noop}second", UserAccounts.Role.USER))
                    .isInstanceOf(DuplicateKeyException.class);
            assertThat(users.findByUsername("race")).map(UserAccounts.UserAccount::passwordHash)
                    .contains("{noop}first");
            assertThat(jdbc.sql("SELECT COUNT(*) FROM app_user WHERE username = 'race'").query(Long.class).single())
                    .isEqualTo(1);
        } finally {
            jdbc.sql("DELETE FROM app_user WHERE username = 'race'").update();
        }
    }
}
