package io.perflab.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.system.PerfLabProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.DefaultApplicationArguments;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;

/** The first start's admin account when two instances start at once on one empty database. */
class InitialAdminAccountTests {

    @Test
    void anInstanceThatLosesTheRaceToCreateAdminStartsAndWritesNoPassword(@TempDir Path dataDir) {
        SingleConnectionDataSource database = new SingleConnectionDataSource(
                "jdbc:h2:mem:initial-admin-race;DB_CLOSE_DELAY=-1", "sa", "", true);
        try {
            Flyway.configure().dataSource(database).load().migrate();
            JdbcClient jdbc = JdbcClient.create(database);
            UserAccounts users = new UserAccounts(jdbc, Clock.systemUTC()) {
                @Override
                public long count() {
                    return 0; // as this instance saw it, just before the other one created admin
                }
            };
            users.create("admin", "{noop}the-other-instance's", UserAccounts.Role.ADMIN);
            InitialAdminAccount account = new InitialAdminAccount(users,
                    PasswordEncoderFactories.createDelegatingPasswordEncoder(),
                    new PerfLabProperties(dataDir, new PerfLabProperties.Security(null),
                            new PerfLabProperties.Trials(false, List.of(), null)));

            account.run(new DefaultApplicationArguments());

            assertThat(Files.exists(dataDir.resolve(InitialAdminAccount.PASSWORD_FILE))).isFalse();
            assertThat(jdbc.sql("SELECT password_hash FROM app_user WHERE username = 'admin'").query(String.class)
                    .single()).isEqualTo("{noop}the-other-instance's");
        } finally {
            database.destroy();
        }
    }
}
