package io.perflab.security;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.perflab.system.PerfLabProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.DefaultApplicationArguments;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;

/**
 * The first start's admin account: when two instances start at once on one empty database, and where its password
 * file's directory is missing or cannot be written.
 */
@ExtendWith(OutputCaptureExtension.class)
class InitialAdminAccountTests {

    @Test
    void aDataDirectoryThatIsNotThereYetIsMadeForThePasswordFile(@TempDir Path root) throws Exception {
        // a database kept elsewhere (spring.datasource.url) makes no data directory: the start failed on it
        Path dataDir = root.resolve("not/made/yet");
        withEmptyDatabase("initial-admin-no-dir", (users, jdbc) -> {
            account(users, dataDir).run(new DefaultApplicationArguments());

            Path file = dataDir.resolve(InitialAdminAccount.PASSWORD_FILE);
            String password = Files.readString(file).strip();
            assertThat(password).hasSize(36);
            assertThat(PasswordEncoderFactories.createDelegatingPasswordEncoder().matches(password,
                    jdbc.sql("SELECT password_hash FROM app_user WHERE username = 'admin'").query(String.class)
                            .single())).isTrue();
        });
    }

    @Test
    void aPasswordFileThatCannotBeWrittenLeavesThePasswordInTheLogAndTheStartGoesOn(@TempDir Path root,
            CapturedOutput output) throws Exception {
        Path notADirectory = Files.writeString(root.resolve("data"), "a file where the data directory should be");
        // a service whose log is kept at WARN (the tests that start the service in this JVM set it so) must still
        // show the password: it was logged at INFO, and said nowhere
        Logger rootLogger = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        Level level = rootLogger.getLevel();
        rootLogger.setLevel(Level.WARN);
        try {
            withEmptyDatabase("initial-admin-unwritable", (users, jdbc) -> unwritable(users, jdbc, notADirectory,
                    output));
        } finally {
            rootLogger.setLevel(level);
        }
    }

    private static void unwritable(UserAccounts users, JdbcClient jdbc, Path notADirectory, CapturedOutput output) {
        account(users, notADirectory).run(new DefaultApplicationArguments());

        String hash = jdbc.sql("SELECT password_hash FROM app_user WHERE username = 'admin'")
                .query(String.class).single();
        Matcher shown = Pattern.compile("password:\\s+([0-9a-f]{36})\\s").matcher(output.getOut());
        assertThat(shown.find()).as("the password in the log").isTrue();
        assertThat(PasswordEncoderFactories.createDelegatingPasswordEncoder().matches(shown.group(1), hash))
                .isTrue();
        assertThat(output.getOut()).contains("could not be written to " + notADirectory.resolve(
                InitialAdminAccount.PASSWORD_FILE)).contains("this log is the only place it is")
                .contains("(the data directory " + notADirectory + " is a file)").doesNotContain("Exception");
    }

    private interface DatabaseUse {
        void accept(UserAccounts users, JdbcClient jdbc) throws Exception;
    }

    private static void withEmptyDatabase(String name, DatabaseUse use) throws Exception {
        SingleConnectionDataSource database = new SingleConnectionDataSource(
                "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", "sa", "", true);
        try {
            Flyway.configure().dataSource(database).load().migrate();
            JdbcClient jdbc = JdbcClient.create(database);
            use.accept(new UserAccounts(jdbc, Clock.systemUTC()), jdbc);
        } finally {
            database.destroy();
        }
    }

    private static InitialAdminAccount account(UserAccounts users, Path dataDir) {
        return new InitialAdminAccount(users, PasswordEncoderFactories.createDelegatingPasswordEncoder(),
                new PerfLabProperties(dataDir, new PerfLabProperties.Security(null, true),
                        new PerfLabProperties.Trials(false, List.of(), null)));
    }

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
                    new PerfLabProperties(dataDir, new PerfLabProperties.Security(null, true),
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
