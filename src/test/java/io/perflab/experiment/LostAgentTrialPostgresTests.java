package io.perflab.experiment;

import io.perflab.system.EmbeddedPostgres;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link LostAgentTrialTests} on a real PostgreSQL, whose row lock the check takes there. */
class LostAgentTrialPostgresTests extends LostAgentTrialTests {

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        EmbeddedPostgres.register(registry);
    }
}
