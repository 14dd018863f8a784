package io.perflab.experiment;

import io.perflab.system.EmbeddedPostgres;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link ExperimentListQueriesTests} on a real PostgreSQL 17: the same migrations and SQL. */
class ExperimentListQueriesPostgresTests extends ExperimentListQueriesTests {

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        EmbeddedPostgres.register(registry);
    }
}
