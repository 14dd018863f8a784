package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.experiment.AgentProperties;
import io.perflab.experiment.JvmFlagPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.context.annotation.Import;

/** What a failed start of the web service says, found among the causes Spring wraps it in. */
class StartupFailureTests {

    @TempDir
    Path directory;

    /** The chain of beans Spring was creating when {@code cause} was thrown, as a start reports it. */
    private static RuntimeException wrapped(Throwable cause) {
        return new BeanCreationException("agentApiController", "Unsatisfied dependency",
                new BeanCreationException("flywayInitializer", "Unable to obtain connection from database",
                        new RuntimeException("Unable to obtain connection", cause)));
    }

    @Test
    void aDatabaseThatAnotherServiceHoldsNamesTheDataDirectory() {
        // H2 2.4's message and code for a database file locked by another process
        SQLException locked = new SQLException("Database may be already in use: \"/srv/perflab/perflab.mv.db\". "
                + "Possible solutions: close all other connection(s); use the server mode [90020-240]", "90020",
                StartupFailure.H2_DATABASE_IN_USE);

        assertThat(StartupFailure.of(wrapped(locked))).map(StartupFailure::message).hasValue("the data directory "
                + "/srv/perflab is in use by another PerfLab service (its database is locked); stop it or give "
                + "--perflab.data-dir another directory");
        assertThat(StartupFailure.of(wrapped(new SQLException("Database \"/srv/x\" not found [90146-240]", "90146",
                90146)))).isEmpty();
    }

    @Test
    void aPortOutOfRangeOrInUseIsNamed() {
        assertThat(StartupFailure.of(wrapped(new IllegalArgumentException("standardService.connector.startFailed",
                new IllegalArgumentException("port out of range:99999")))))
                .map(StartupFailure::message).hasValue("server.port 99999 is out of range (1–65535, or 0 for any "
                        + "free port)");
        assertThat(StartupFailure.of(wrapped(new PortInUseException(18190))))
                .map(StartupFailure::message).hasValue("port 18190 is in use by another process; stop it or give "
                        + "--server.port another port");
    }

    @Test
    void aDataDirectoryThatIsAFileIsNamedAsTheDataDirectory() throws IOException {
        Path file = Files.createFile(directory.resolve("data"));

        // FileAlreadyExistsException's message is the path alone, and Spring named spring.datasource.url
        assertThat(DataDirectoryEnvironmentPostProcessor.problem(file)).isEqualTo("the data directory " + file
                + " is a file");
        assertThat(DataDirectoryEnvironmentPostProcessor.problem(file.resolve("below"))).isEqualTo("cannot create "
                + "the data directory " + file.resolve("below") + ": " + file + " is a file");
        assertThat(DataDirectoryEnvironmentPostProcessor.problem(directory.resolve("new"))).isNull();
        assertThat(directory.resolve("new")).isDirectory();
        assertThat(StartupFailure.of(wrapped(new DataDirectoryException("the data directory /x is a file"))))
                .map(StartupFailure::message).hasValue("the data directory /x is a file");
    }

    /** Spring binds the settings, then JvmFlagPolicy finds they cannot work together: said in one line. */
    @EnableConfigurationProperties({PerfLabProperties.class, AgentProperties.class})
    @Import(JvmFlagPolicy.class)
    static class TrialSettings {
    }

    @Test
    void fixedTrialFlagsThatAloneTakeMoreThanTheBoundAreNamedAtStart() {
        ApplicationContextRunner start = new ApplicationContextRunner().withUserConfiguration(TrialSettings.class)
                .withPropertyValues("perflab.trials.jvm-args=-Xms2g,-Xmx2g,-XX:+UseSerialGC",
                        "perflab.trials.max-jvm-memory=1GB");

        start.run(context -> assertThat(StartupFailure.of(context.getStartupFailure()))
                .map(StartupFailure::message).hasValueSatisfying(message -> assertThat(message).startsWith(
                        "perflab.trials.jvm-args: the fixed flags every trial JVM starts with take 2 GiB of memory by "
                                + "themselves (-Xms2g -Xmx2g), more than a trial JVM may take on this server "
                                + "(perflab.trials.max-jvm-memory; ")
                        .endsWith("perflab.agents.built-in=false if agents run the trials")));
        start.withPropertyValues("perflab.agents.built-in=false")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(JvmFlagPolicy.class));
        start.withPropertyValues("perflab.trials.max-jvm-memory=2GB")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(new StartupFailureReporter().reportException(wrapped(new SettingException("x")))).isTrue();
    }

    /**
     * A setting of true or false that is neither is named with its value: Spring's report took a dozen lines, headed
     * "Failed to bind properties under 'perflab.trials.raw-jvm-flags' to boolean", and the start exited 70.
     */
    @Test
    void aBooleanSettingThatIsNeitherTrueNorFalseIsNamedAtStart() {
        ApplicationContextRunner start = new ApplicationContextRunner().withUserConfiguration(TrialSettings.class);

        start.withPropertyValues("perflab.trials.raw-jvm-flags=maybe").run(context -> assertThat(
                StartupFailure.of(context.getStartupFailure())).map(StartupFailure::message)
                .hasValue("perflab.trials.raw-jvm-flags: 'maybe' is neither true nor false"));
        start.withPropertyValues("perflab.agents.built-in=ja\u001B[2J").run(context -> assertThat(
                StartupFailure.of(context.getStartupFailure())).map(StartupFailure::message)
                .hasValue("perflab.agents.built-in: 'ja\\u001B[2J' is neither true nor false"));
        start.withPropertyValues("perflab.trials.raw-jvm-flags=yes").run(context -> assertThat(context)
                .hasNotFailed());
        start.withPropertyValues("perflab.security.anonymous-reads=maybe").run(context -> assertThat(
                StartupFailure.of(context.getStartupFailure())).map(StartupFailure::message)
                .hasValue("perflab.security.anonymous-reads: 'maybe' is neither true nor false"));
    }

    @Test
    void readsAreOpenToAnyoneUnlessTheSettingSaysOtherwise() {
        ApplicationContextRunner start = new ApplicationContextRunner().withUserConfiguration(TrialSettings.class);

        start.run(context -> assertThat(context.getBean(PerfLabProperties.class).security().anonymousReads())
                .isTrue());
        start.withPropertyValues("perflab.security.anonymous-reads=false").run(context -> assertThat(
                context.getBean(PerfLabProperties.class).security().anonymousReads()).isFalse());
    }

    @Test
    void anyOtherFailureIsLeftToSpring() {
        assertThat(StartupFailure.of(wrapped(new IllegalStateException("no bean of type X")))).isEmpty();
        assertThat(new StartupFailureReporter().reportException(wrapped(new IllegalStateException("x")))).isFalse();
        assertThat(new StartupFailureReporter().reportException(wrapped(new PortInUseException(1)))).isTrue();
    }
}
