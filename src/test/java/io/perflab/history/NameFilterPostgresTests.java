package io.perflab.history;

import io.perflab.system.EmbeddedPostgres;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link NameFilterTests} on a real PostgreSQL in the locale of its server. */
class NameFilterPostgresTests extends NameFilterTests {

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        EmbeddedPostgres.register(registry);
    }
}
