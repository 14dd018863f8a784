package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.PerfLabApplication;
import io.perflab.cli.PerfLabCommand;
import io.perflab.system.EmbeddedPostgres;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Two service instances on one host and one PostgreSQL take the same default built-in agent name: the second took
 * the agent over and, at its start, interrupted the experiment the first one ran. It now refuses to start while
 * the first one heartbeats that agent, and starts once the first one has stopped. The refusal is a setting's, said
 * as {@code perflab} says one: in one line, with exit status 2, where it printed a stack trace and exited 70.
 */
@ExtendWith(OutputCaptureExtension.class)
class BuiltInAgentNameTests {

    private static final String NAME = "built-in@one-host";

    private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

    @AfterEach
    void stopInstances() {
        instances.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void aSecondInstanceWithTheSameBuiltInAgentRefusesToStartUntilTheFirstStops(CapturedOutput output)
            throws Exception {
        EmbeddedPostgres.Database database = EmbeddedPostgres.newDatabase();
        ConfigurableApplicationContext first = start(database);
        JdbcClient jdbc = first.getBean(JdbcClient.class);
        long agent = jdbc.sql("SELECT id FROM agent WHERE name = ?").param(NAME).query(Long.class).single();
        Object registered = jdbc.sql("SELECT registered_at FROM agent WHERE id = ?").param(agent).query().singleValue();
        int before = output.length();
        StringWriter err = new StringWriter();

        int status = PerfLabCommand.serve(this::start, arguments(database),
                new PrintWriter(err, true));

        assertThat(status).as(err.toString()).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("perflab: the web service did not start: perflab.agents.built-in-name: "
                + "another service instance runs the built-in agent '" + NAME + "' (its heartbeat went on while this "
                + "one started): give this instance a name of its own (--perflab.agents.built-in-name=NAME) or no "
                + "built-in agent (--perflab.agents.built-in=false); taking that one over would interrupt the "
                + "experiment it runs" + System.lineSeparator());
        assertThat(output.toString().substring(before)).as("no stack trace, no 'Application run failed'")
                .doesNotContain("\tat ", "Application run failed", "Exception:");
        // taking the agent over registers it again, and interrupts what it runs
        assertThat(jdbc.sql("SELECT registered_at FROM agent WHERE id = ?").param(agent).query().singleValue())
                .as("the first instance's agent, left alone").isEqualTo(registered);

        first.close();
        ConfigurableApplicationContext second = start(database);
        assertThat(second.getBean(JdbcClient.class).sql("SELECT id, status FROM agent WHERE name = ?").param(NAME)
                .query((rs, row) -> rs.getLong(1) + " " + rs.getString(2)).list())
                .as("the stopped instance's agent, taken over").containsExactly(agent + " IDLE");
    }

    /** Built-in agent labels that are no labels are a setting refused at the start in one line, exit status 2. */
    @Test
    void builtInAgentLabelsThatAreNoLabelsAreSaidInOneLine(CapturedOutput output) throws Exception {
        String[] arguments = {"--server.port=0", "--server.address=127.0.0.1",
                "--perflab.data-dir=" + Files.createTempDirectory("perflab-built-in-labels"),
                "--perflab.agents.built-in-labels=po ol=a", "--spring.main.banner-mode=off",
                "--logging.level.root=WARN"};
        int before = output.length();
        StringWriter err = new StringWriter();

        int status = PerfLabCommand.serve(this::start, arguments, new PrintWriter(err, true));

        assertThat(status).as(err.toString()).isEqualTo(2);
        assertThat(err.toString()).startsWith("perflab: the web service did not start: "
                + "perflab.agents.built-in-labels: ").contains("'po ol'").endsWith(System.lineSeparator())
                .hasLineCount(1);
        assertThat(output.toString().substring(before)).doesNotContain("\tat ", "Application run failed");
    }

    private ConfigurableApplicationContext start(EmbeddedPostgres.Database database) throws Exception {
        return start(arguments(database));
    }

    private ConfigurableApplicationContext start(String[] arguments) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(PerfLabApplication.class).run(
                arguments);
        instances.add(context);
        return context;
    }

    private static String[] arguments(EmbeddedPostgres.Database database) throws java.io.IOException {
        return new String[] {"--server.port=0", "--server.address=127.0.0.1",
                "--perflab.data-dir=" + Files.createTempDirectory("perflab-built-in-name"),
                "--perflab.security.bootstrap-token=built-in-name-tests-token",
                "--perflab.agents.built-in-name=" + NAME, "--perflab.agents.heartbeat-interval=200ms",
                "--perflab.agents.heartbeat-timeout=3s",
                "--spring.datasource.url=" + database.url(), "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(), "--spring.main.banner-mode=off",
                "--logging.level.root=WARN"};
    }
}
