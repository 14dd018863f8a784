package io.perflab.experiment;

import io.perflab.system.EmbeddedPostgres;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link ExperimentRepositoryTests} on a real PostgreSQL 17: the same migrations and SQL. */
class ExperimentRepositoryPostgresTests extends ExperimentRepositoryTests {

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        EmbeddedPostgres.register(registry);
    }
}
