package io.perflab.security;

import io.perflab.system.EmbeddedPostgres;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link UserAccountsTests} on a real PostgreSQL: the same migrations and SQL. */
class UserAccountsPostgresTests extends UserAccountsTests {

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        EmbeddedPostgres.register(registry);
    }
}
