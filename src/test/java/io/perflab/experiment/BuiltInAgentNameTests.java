package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.PerfLabApplication;
import io.perflab.system.EmbeddedPostgres;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Two service instances on one host and one PostgreSQL take the same default built-in agent name: the second took
 * the agent over and, at its start, interrupted the experiment the first one ran. It now refuses to start while
 * the first one heartbeats that agent, and starts once the first one has stopped.
 */
class BuiltInAgentNameTests {

    private static final String NAME = "built-in@one-host";

    private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

    @AfterEach
    void stopInstances() {
        instances.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void aSecondInstanceWithTheSameBuiltInAgentRefusesToStartUntilTheFirstStops() throws Exception {
        EmbeddedPostgres.Database database = EmbeddedPostgres.newDatabase();
        ConfigurableApplicationContext first = start(database);
        JdbcClient jdbc = first.getBean(JdbcClient.class);
        long agent = jdbc.sql("SELECT id FROM agent WHERE name = ?").param(NAME).query(Long.class).single();
        Object registered = jdbc.sql("SELECT registered_at FROM agent WHERE id = ?").param(agent).query().singleValue();
        assertThatThrownBy(() -> start(database)).hasStackTraceContaining("another service instance runs the "
                + "built-in agent '" + NAME + "' (its heartbeat went on while this one started): give this instance "
                + "a name of its own (--perflab.agents.built-in-name=NAME)");
        // taking the agent over registers it again, and interrupts what it runs
        assertThat(jdbc.sql("SELECT registered_at FROM agent WHERE id = ?").param(agent).query().singleValue())
                .as("the first instance's agent, left alone").isEqualTo(registered);

        first.close();
        ConfigurableApplicationContext second = start(database);
        assertThat(second.getBean(JdbcClient.class).sql("SELECT id, status FROM agent WHERE name = ?").param(NAME)
                .query((rs, row) -> rs.getLong(1) + " " + rs.getString(2)).list())
                .as("the stopped instance's agent, taken over").containsExactly(agent + " IDLE");
    }

    private ConfigurableApplicationContext start(EmbeddedPostgres.Database database) throws Exception {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(PerfLabApplication.class).run(
                "--server.port=0", "--server.address=127.0.0.1",
                "--perflab.data-dir=" + Files.createTempDirectory("perflab-built-in-name"),
                "--perflab.security.bootstrap-token=built-in-name-tests-token",
                "--perflab.agents.built-in-name=" + NAME, "--perflab.agents.heartbeat-interval=200ms",
                "--perflab.agents.heartbeat-timeout=3s",
                "--spring.datasource.url=" + database.url(), "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(), "--spring.main.banner-mode=off",
                "--logging.level.root=WARN");
        instances.add(context);
        return context;
    }
}
