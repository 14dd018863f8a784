package io.perflab.experiment;

import io.perflab.system.EmbeddedPostgres;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link AgentApiTests} on a real PostgreSQL: the claims' row locks, the agents' queries and their refusals. */
class AgentApiPostgresTests extends AgentApiTests {

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        EmbeddedPostgres.register(registry);
    }
}
