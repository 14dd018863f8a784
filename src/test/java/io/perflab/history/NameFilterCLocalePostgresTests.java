package io.perflab.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.system.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link NameFilterTests} on a real PostgreSQL database created in the C locale. */
class NameFilterCLocalePostgresTests extends NameFilterTests {

    @Autowired
    JdbcClient jdbc;

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        EmbeddedPostgres.registerInTheCLocale(registry);
    }

    @Test
    void theDatabaseLowerCasesAsciiLettersOnly() {
        assertThat(jdbc.sql("SELECT LOWER('ÖL')").query(String.class).single()).isEqualTo("Öl");
    }
}
