package io.perflab.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;

/**
 * The oldest PostgreSQL the service supports, 15 (the other {@code *PostgresTests} run on the version of the
 * project's zonky binaries): every migration applies to an empty database and validates, and a user, a token and
 * failed sign-ins make a round trip through their repositories. The binaries are the jar that Maven copies into the
 * test classes ({@code oldest-postgres-binaries.version}).
 */
class OldestPostgresTests {

    private static final String BINARIES = "/postgres/oldest-postgres-binaries.jar";

    private static EmbeddedPostgres server;

    @BeforeAll
    static void start() throws IOException {
        server = EmbeddedPostgres.builder().setPgBinaryResolver(OldestPostgresTests::binaries).start();
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    /** The archive of the server's binaries, read from the jar of zonky's binaries. */
    private static InputStream binaries(String system, String architecture) throws IOException {
        // as zonky's own resolver names it: postgres-linux-x86_64.txz
        String archive = "postgres-" + system.toLowerCase(Locale.ROOT) + "-" + architecture + ".txz";
        InputStream jar = OldestPostgresTests.class.getResourceAsStream(BINARIES);
        if (jar == null) {
            throw new IllegalStateException(BINARIES + " is missing from the test classes; Maven's "
                    + "generate-test-resources phase copies it there (src/pom.xml, maven-dependency-plugin)");
        }
        ZipInputStream entries = new ZipInputStream(jar);
        for (ZipEntry entry = entries.getNextEntry(); entry != null; entry = entries.getNextEntry()) {
            if (entry.getName().equals(archive)) {
                return entries;
            }
        }
        entries.close();
        throw new IllegalStateException(BINARIES + " holds no " + archive);
    }

    @Test
    void theMigrationsApplyAndUsersTokensAndFailedSignInsMakeARoundTrip() {
        DataSource database = server.getPostgresDatabase();
        JdbcClient jdbc = JdbcClient.create(database);
        assertThat(jdbc.sql("SHOW server_version").query(String.class).single()).startsWith("15.");

        MigrateResult migrated = Flyway.configure().dataSource(database).load().migrate();

        assertThat(migrated.success).isTrue();
        Flyway flyway = Flyway.configure().dataSource(database).load();
        flyway.validate();
        assertThat(flyway.info().pending()).isEmpty();
        assertThat(migrated.migrationsExecuted).isEqualTo(flyway.info().applied().length).isGreaterThan(10);

        Clock clock = Clock.systemUTC();
        UserAccounts users = new UserAccounts(jdbc, clock);
        users.create("admin", "{bcrypt}$2a$10$hash-of-admin", UserAccounts.Role.ADMIN);
        assertThat(users.findByUsername("admin")).map(UserAccounts.UserAccount::role)
                .contains(UserAccounts.Role.ADMIN);

        ApiTokens tokens = new ApiTokens(jdbc, clock);
        ApiTokens.CreatedToken created = tokens.create("ci", "admin");
        assertThat(tokens.use(created.secret())).map(ApiTokens.ApiToken::name).contains("ci");
        assertThat(tokens.revoke(created.token().id(), "admin")).isTrue();
        assertThat(tokens.find(created.token().id())).hasValueSatisfying(token -> assertThat(token.revoked()).isTrue());

        SignInFailures failures = new SignInFailures(jdbc, new JdbcTransactionManager(database));
        Instant now = Instant.parse("2026-01-01T12:00:00Z");
        assertThat(failures.attempt("user:mallory", "address:10.0.0.1", now.minusSeconds(5),
                stored -> Optional.empty())).isEmpty();
        assertThat(failures.attempt("user:mallory", "address:10.0.0.1", now, stored -> Optional.empty())).isEmpty();
        // a refused attempt counts nothing
        assertThat(failures.attempt("user:mallory", "address:10.0.0.1", now.plusSeconds(1),
                stored -> Optional.of(Duration.ofSeconds(stored.size())))).contains(Duration.ofSeconds(2));
        assertThat(failures.find("user:mallory", "address:10.0.0.1")).hasSize(2).allSatisfy(stored -> {
            assertThat(stored.count()).isEqualTo(2);
            assertThat(stored.lastFailure()).isEqualTo(now);
        });
        assertThat(failures.firstToSeeLock("user:mallory", 2)).isTrue();
        assertThat(failures.firstToSeeLock("user:mallory", 2)).isFalse();
        failures.clear("user:mallory", "address:10.0.0.1");
        assertThat(failures.count()).isZero();
    }
}
