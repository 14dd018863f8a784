package io.perflab.experiment;

import io.perflab.system.EmbeddedPostgres;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link PairedResumeTests} on a real PostgreSQL: pairs stored whole or not at all there too. */
class PairedResumePostgresTests extends PairedResumeTests {

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        EmbeddedPostgres.register(registry);
    }
}
