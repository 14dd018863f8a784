package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.PerfLabApplication;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PerfLabCommandTests {

    @Test
    void serverStartsWithNoArgumentsServeOrOnlySpringProperties() {
        assertThat(PerfLabCommand.startsServer(new String[0])).isTrue();
        assertThat(PerfLabCommand.startsServer(new String[] {"serve", "--server.port=1"})).isTrue();
        assertThat(PerfLabCommand.startsServer(new String[] {"--server.port=18080", "--perflab.data-dir=/tmp/x"}))
                .isTrue();
        assertThat(PerfLabCommand.serverArguments(new String[] {"serve", "--server.port=1"}))
                .containsExactly("--server.port=1");
    }

    @Test
    void helpVersionAndSubcommandsGoToTheCommandLine() {
        assertThat(PerfLabCommand.startsServer(new String[] {"--help"})).isFalse();
        assertThat(PerfLabCommand.startsServer(new String[] {"--version"})).isFalse();
        assertThat(PerfLabCommand.startsServer(new String[] {"frobnicate"})).isFalse();
        assertThat(PerfLabCommand.startsServer(new String[] {"--server.port=1", "-h"})).isFalse();
        assertThat(PerfLabCommand.startsServer(new String[] {"serve", "--help"})).isFalse();
    }

    @Test
    void aMistypedFlagIsNoServerStart() {
        // each started the web service on port 8080, as every argument began with --
        assertThat(PerfLabCommand.startsServer(new String[] {"--verison"})).isFalse();
        assertThat(PerfLabCommand.startsServer(new String[] {"--runs=5"})).isFalse();
        assertThat(PerfLabCommand.startsServer(new String[] {"--server.port=1", "--debug"})).isFalse();
        assertThat(PerfLabCommand.startsServer(new String[] {"serve", "--verison"})).isFalse();
        assertThat(PerfLabCommand.startsServer(new String[] {"--logging.level.io.perflab=DEBUG",
            "--spring.datasource.url=jdbc:h2:mem:x;MODE=PostgreSQL"})).isTrue();

        StringWriter err = new StringWriter();
        int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err, true))
                .execute("--runs=5");

        assertThat(status).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("Unknown option: '--runs=5'",
                "Properties of the web service are --name.part=value, e.g. --server.port=18080.");
    }

    @Test
    void anArgumentOfServeThatIsNoPropertyIsNamedAndNothingStarts() {
        // 'extra' and 'server.port=18080' went to Spring, which ignored them and started on port 8080; beside
        // 'extra', --server.port=18184 was an unknown option
        String[][] cases = {
            {"'extra' is not a --name.part=value property of the web service", "serve", "extra"},
            {"'server.port=18080' is not a --name.part=value property of the web service; did you mean "
                    + "--server.port=18080?", "serve", "server.port=18080"},
            {"'extra' is not a --name.part=value property", "serve", "extra", "--server.port=18184"},
            {"'--runs=5' is not a --name.part=value property", "serve", "--server.port=18184", "--runs=5"},
            {"'extra' is not a --name.part=value property", "--server.port=18184", "extra"},
            {"did you mean --server.port=18080?", "server.port=18080"}};
        for (String[] c : cases) {
            StringWriter err = new StringWriter();
            String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
            int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err, true))
                    .execute(args);

            assertThat(status).as(String.join(" ", args)).isEqualTo(PerfLabCommand.EXIT_USAGE);
            assertThat(err.toString()).as(String.join(" ", args)).contains(c[0])
                    .doesNotContain("internal error", "Unknown option: '--server.port", "Unknown options: '--server");
        }
    }

    @Test
    void helpListsTheSubcommands() {
        StringWriter out = new StringWriter();
        int status = PerfLabCommand.commandLine(new PrintWriter(out), new PrintWriter(new StringWriter()))
                .execute("--help");

        assertThat(status).isZero();
        assertThat(out.toString()).contains("Usage: perflab", "serve", "help");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bench", "ab", "peers", "calibrate", "trial", "compare", "upload", "token", "agent",
        "serve"})
    void everySubcommandTakesHelp(String subcommand) {
        // the hint printed after a bad option says "perflab SUBCOMMAND --help", so it must work
        StringWriter out = new StringWriter();
        int status = PerfLabCommand.commandLine(new PrintWriter(out), new PrintWriter(new StringWriter()))
                .execute(subcommand, "--help");

        assertThat(status).isZero();
        assertThat(out.toString()).startsWith("Usage: perflab " + subcommand);
    }

    /**
     * Picocli formats descriptions with {@code String.format}: a bare {@code %} makes it print a warning on the
     * standard error before every {@code perflab --help}, and leave {@code %n} unexpanded.
     */
    @Test
    void everyCommandsHelpRendersWithoutAFormatWarning() {
        java.io.PrintStream standardError = System.err;
        java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
        List<String> rendered = new ArrayList<>();
        System.setErr(new java.io.PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            List<picocli.CommandLine> commands = new ArrayList<>(List.of(PerfLabCommand.commandLine(
                    new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()))));
            for (int i = 0; i < commands.size(); i++) {
                picocli.CommandLine command = commands.get(i);
                rendered.add(command.getCommandName() + ": " + command.getUsageMessage());
                commands.addAll(command.getSubcommands().values().stream()
                        .filter(sub -> !commands.contains(sub)).toList());
            }
        } finally {
            System.setErr(standardError);
        }

        assertThat(rendered).hasSizeGreaterThan(9)
                .allSatisfy(help -> assertThat(help).doesNotContain("%n").contains("Usage: "));
        assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void unknownSubcommandExitsTwoNamingIt() {
        StringWriter err = new StringWriter();
        int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err))
                .execute("frobnicate");

        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown command 'frobnicate'", "perflab --help");
    }

    @Test
    void unknownFlagExitsTwoNamingIt() {
        StringWriter err = new StringWriter();
        int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err))
                .execute("--frobnicate");

        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("--frobnicate");
    }

    @Test
    void aCommandThatFailsUnexpectedlySaysWhyInOneLineAndExitsWithTheInternalErrorStatus() {
        StringWriter err = new StringWriter();
        picocli.CommandLine commandLine = failing("the disk fell off", err);

        int status = commandLine.execute("fail");

        assertThat(status).isEqualTo(PerfLabCommand.EXIT_INTERNAL_ERROR).isNotIn(0, 1, 2, 3);
        assertThat(err.toString()).startsWith("perflab fail: internal error: the disk fell off")
                .contains("-Dperflab.debug=true").doesNotContain("\tat ", "IllegalStateException");
        assertThat(commandLine.getUsageMessage()).containsPattern(PerfLabCommand.EXIT_INTERNAL_ERROR
                + " +an internal error");
    }

    @Test
    void theDebugPropertyAddsTheStackTraceOfAnUnexpectedFailure() {
        StringWriter err = new StringWriter();
        picocli.CommandLine commandLine = failing(null, err);
        System.setProperty(PerfLabCommand.DEBUG_PROPERTY, "true");
        try {
            assertThat(commandLine.execute("fail")).isEqualTo(PerfLabCommand.EXIT_INTERNAL_ERROR);
        } finally {
            System.clearProperty(PerfLabCommand.DEBUG_PROPERTY);
        }

        // no message: the exception's class says what happened
        assertThat(err.toString()).startsWith("perflab fail: internal error: IllegalStateException")
                .contains("\tat io.perflab.cli.PerfLabCommandTests");
    }

    /** perflab with a subcommand {@code fail} that fails with {@code message}, writing to {@code err}. */
    private static picocli.CommandLine failing(String message, StringWriter err) {
        picocli.CommandLine commandLine = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()));
        commandLine.addSubcommand("fail", new Failing(message));
        return commandLine.setErr(new PrintWriter(err, true)); // for the subcommand too
    }

    /** A command that fails as a bug would: with an exception that no command expects. */
    @picocli.CommandLine.Command(name = "fail")
    record Failing(String message) implements Runnable {
        @Override
        public void run() {
            throw new IllegalStateException(message);
        }
    }

    /** Runs the real entry point in a fresh JVM: --help must answer without bringing up Spring. */
    @Test
    void helpInAFreshJvmStartsNoSpringContext() throws Exception {
        Result result = runMain("--help");

        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout()).contains("Usage: perflab", "serve");
        assertThat(result.stdout() + result.stderr())
                .doesNotContain("Starting PerfLabApplication")
                .doesNotContain("Spring Boot");
    }

    @Test
    void versionInAFreshJvmPrintsTheVersion() throws Exception {
        Result result = runMain("--version");

        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout()).startsWith("perflab " + io.perflab.system.PerfLabVersion.get());
    }

    @Test
    void unknownSubcommandInAFreshJvmExitsTwo() throws Exception {
        Result result = runMain("frobnicate");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr()).contains("frobnicate");
    }

    record Result(int exitCode, String stdout, String stderr) {
    }

    static Result runMain(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(PerfLabApplication.class.getName());
        command.addAll(List.of(args));
        File stdout = File.createTempFile("perflab-cli", ".out");
        File stderr = File.createTempFile("perflab-cli", ".err");
        Process process = new ProcessBuilder(command).redirectOutput(stdout).redirectError(stderr).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("CLI finished").isTrue();
        Result result = new Result(process.exitValue(),
                java.nio.file.Files.readString(stdout.toPath(), StandardCharsets.UTF_8),
                java.nio.file.Files.readString(stderr.toPath(), StandardCharsets.UTF_8));
        stdout.delete();
        stderr.delete();
        return result;
    }
}
