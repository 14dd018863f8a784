package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.PerfLabApplication;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
    void aPortOutOfRangeOrADataDirectoryThatIsAFileIsRefusedBeforeTheServiceStarts(@TempDir Path directory)
            throws Exception {
        // the service created the data directory and ran its migrations, then failed with 40 frames of Tomcat's;
        // a file as the data directory was "FileAlreadyExistsException" of the property spring.datasource.url
        Path file = Files.createFile(directory.resolve("file"));
        String[][] cases = {
            {"Invalid value for '--server.port': port 99999 is out of range (1–65535, or 0 for any free port)",
                "--server.port=99999", "--perflab.data-dir=" + directory.resolve("new")},
            {"Invalid value for '--server.port': 'http' is not a port", "--server.port=http"},
            {"Invalid value for '--perflab.data-dir': the data directory " + file + " is a file; give a directory",
                "--server.port=18190", "--perflab.data-dir=" + file},
            // the check took it for the working directory; the start failed with the password file's stack trace
            {"Invalid value for '--perflab.data-dir': it is empty; give a directory", "--perflab.data-dir="},
            // Spring joined them: the database went to a directory named "<new>,<file>", the check saw the last
            {"'--perflab.data-dir' is given twice ('" + directory.resolve("new") + "' and '" + file + "'), which "
                + "Spring would take as one value joined by a comma; give it once", "--perflab.data-dir="
                + directory.resolve("new"), "--perflab.data-dir=" + file},
            {"'--server.port' is given twice ('18190' and '18191')", "--server.port=18190", "--server.port=18191"}};
        for (String[] c : cases) {
            StringWriter err = new StringWriter();
            String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);

            // this command line's service cannot start: it fails as an internal error (70) when asked to
            int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err, true))
                    .execute(prepend("serve", args));

            assertThat(status).as(c[0]).isEqualTo(PerfLabCommand.EXIT_USAGE);
            assertThat(err.toString()).startsWith("perflab: " + c[0]);
        }
        assertThat(directory.resolve("new")).doesNotExist();
    }

    /**
     * A port that is none, a data directory below a file, and a setting the service could not start with were
     * printed as they came: perflab serve --server.port=$'1\\e[2J' cleared the terminal. They are said as the command
     * line's other messages are, each control or hidden character written as its escape.
     */
    @Test
    void aRefusedSettingIsPrintedWithItsControlCharactersEscaped(@TempDir Path directory) throws Exception {
        Path file = Files.createFile(directory.resolve("file"));
        String[][] cases = {
            {"Invalid value for '--server.port': '1\\u001B[2J\\u202E' is not a port", "--server.port=1\u001B[2J\u202E"},
            {"Invalid value for '--perflab.data-dir': cannot create the data directory " + file + "/\\u001B[2J: "
                + file + " is a file", "--perflab.data-dir=" + file + "/\u001B[2J"}};
        for (String[] c : cases) {
            StringWriter err = new StringWriter();

            int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err, true))
                    .execute("serve", c[1]);

            assertThat(status).as(c[0]).isEqualTo(PerfLabCommand.EXIT_USAGE);
            assertThat(err.toString()).startsWith("perflab: " + c[0]).doesNotContain("\u001B", "\u202E");
        }
        StringWriter err = new StringWriter();

        int status = PerfLabCommand.serve(args -> {
            throw new io.perflab.system.SettingException("perflab.agents.built-in-name: another service instance "
                    + "runs the built-in agent 'x\u001B[2J'");
        }, new String[0], new PrintWriter(err, true));

        assertThat(status).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).isEqualTo("perflab: the web service did not start: perflab.agents.built-in-name: "
                + "another service instance runs the built-in agent 'x\\u001B[2J'" + System.lineSeparator());
    }

    @Test
    void aFileNameThatCannotBeAPathIsSaidWithoutJavasTypes() {
        // in a POSIX locale any name beyond ASCII was "cannot convert 'caf??.txt' to interface java.nio.file.Path
        // (java.nio.file.InvalidPathException: Malformed input or input contains unmappable characters: …)"
        String[][] cases = {
            {"'a\\u0000b.txt' is not a file name this system can use: it holds a NUL character", "compare",
                "a\u0000b.txt", "b.txt"},
            {"is not a file name this system can use: its characters cannot be written in the encoding of file names",
                "calibrate", "--from", "\uD800.json"},
            {"is not a file name this system can use", "ab", "--runs", "2", "--out", "run\u0000.json"}};
        for (String[] c : cases) {
            StringWriter err = new StringWriter();

            int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err, true))
                    .execute(java.util.Arrays.copyOfRange(c, 1, c.length));

            assertThat(status).as(err.toString()).isEqualTo(PerfLabCommand.EXIT_USAGE);
            assertThat(err.toString()).contains(c[0]).doesNotContain("java.", "InvalidPathException", "interface");
        }
    }

    @Test
    void aStartThatFailsOnASettingIsSaidInOneLine() {
        StringWriter err = new StringWriter();

        int status = PerfLabCommand.serve(args -> {
            throw new org.springframework.beans.factory.BeanCreationException("webServerStartStop", "Failed to start",
                    new org.springframework.boot.web.server.PortInUseException(18190));
        }, new String[] {"--server.port=18190"}, new PrintWriter(err, true));

        assertThat(status).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).isEqualTo("perflab: the web service did not start: port 18190 is in use by "
                + "another process; stop it or give --server.port another port" + System.lineSeparator());

        StringWriter unknown = new StringWriter();
        assertThat(PerfLabCommand.serve(args -> {
            throw new IllegalStateException("no bean of type X");
        }, new String[0], new PrintWriter(unknown, true))).isEqualTo(PerfLabCommand.EXIT_INTERNAL_ERROR);
        assertThat(unknown.toString()).contains("did not start").doesNotContain("IllegalStateException");
    }

    /**
     * Another service holds the data directory's database: the start printed 186 lines, Spring's chain of beans
     * and H2's stack trace, and exited 1.
     */
    @Test
    void aDataDirectoryInUseIsSaidInOneLineWithoutAStackTrace(@TempDir Path directory) throws Exception {
        try (FileChannel database = FileChannel.open(directory.resolve("perflab.mv.db"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock lock = database.lock()) {
            Result result = runMain(180, "--server.port=18197", "--perflab.data-dir=" + directory);

            assertThat(result.exitCode()).as(result.stdout() + result.stderr()).isEqualTo(PerfLabCommand.EXIT_USAGE);
            assertThat(result.stderr()).isEqualTo("perflab: the web service did not start: the data directory "
                    + directory + " is in use by another PerfLab service (its database is locked); stop it or give "
                    + "--perflab.data-dir another directory" + System.lineSeparator());
            assertThat(result.stdout()).doesNotContain("\tat ", "Exception", "Caused by", "APPLICATION FAILED");
        }
    }

    private static String[] prepend(String first, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    @Test
    void helpListsTheSubcommands() {
        StringWriter out = new StringWriter();
        int status = PerfLabCommand.commandLine(new PrintWriter(out), new PrintWriter(new StringWriter()))
                .execute("--help");

        assertThat(status).isZero();
        assertThat(out.toString()).contains("Usage: perflab", "serve", "help");
    }

    /**
     * {@code ab}'s summary, in {@code perflab --help} and {@code perflab ab --help}, said it runs --runs trials per
     * variant in fresh JVMs, with the paired designs as the alternative: its default is alternating pairs, at most 40,
     * stopping once the four CPU and context-switch figures per request are settled, and the fresh design the
     * alternative.
     */
    @ParameterizedTest
    @ValueSource(strings = {"--help", "ab --help"})
    void abSummaryNamesTheDefaultExperimentFirstAndTheFreshDesignAsTheAlternative(String args) {
        StringWriter out = new StringWriter();
        int status = PerfLabCommand.commandLine(new PrintWriter(out), new PrintWriter(new StringWriter()))
                .execute(args.split(" "));

        assertThat(status).isZero();
        // the help wraps lines at spaces and at punctuation (--name.part): compare without any space
        String help = out.toString().replaceAll("\\s+", "");
        String summary = help.substring(help.indexOf("RunanA/Bexperiment"));
        assertThat(summary).startsWith("RunanA/Bexperiment,bydefaultinalternatingpairsoftrialJVMs")
                .contains("atmost40pairs,stoppingonceuser,systemandallCPUandcontextswitchesperrequestareeach"
                        + "settledorachangeof2%ofitunlikely(user_cpu_us_per_req:mde=2%sys_cpu_us_per_req:mde=2%"
                        + "cpu_us_per_req:mde=2%ctx_switches_per_req:mde=2%)",
                        ";or--runsN:Ntrialspervariant,eachinafreshJVM");
        assertThat(summary.indexOf("freshJVM")).isGreaterThan(summary.indexOf("alternatingpairs"));
    }

    /** {@code perflab token} alone does nothing: a usage error naming the subcommands (it exited 0). */
    @Test
    void tokenWithoutASubcommandIsAUsageError() {
        StringWriter err = new StringWriter();
        int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err))
                .execute("token");

        assertThat(status).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("token needs a subcommand: create NAME or revoke ID");
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
     * {@code perflab token --help} listed the top-level command's exit statuses, --threshold, bench and ab among them,
     * which picocli lets every subcommand inherit: each command lists its own.
     */
    @Test
    void eachCommandsHelpListsOnlyItsOwnExitStatuses() {
        picocli.CommandLine root = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()));
        Map<String, String> everyCommands = root.getCommandSpec().usageMessage().exitCodeList();
        List<picocli.CommandLine> commands = new ArrayList<>(root.getSubcommands().values());
        for (int i = 0; i < commands.size(); i++) {
            commands.addAll(commands.get(i).getSubcommands().values());
        }

        assertThat(commands.stream().filter(c -> !c.getCommandName().equals("help"))).hasSizeGreaterThan(10)
                .allSatisfy(command -> assertThat(command.getCommandSpec().usageMessage().exitCodeList())
                        .as(command.getCommandSpec().qualifiedName()).isNotEmpty().isNotEqualTo(everyCommands));
        StringWriter out = new StringWriter();
        PerfLabCommand.commandLine(new PrintWriter(out), new PrintWriter(new StringWriter()))
                .execute("token", "--help");
        String exitStatus = out.toString().substring(out.toString().indexOf("Exit status:"));
        assertThat(exitStatus).contains("0", "2", "3", "70").doesNotContain("--threshold", "bench", "ab,", "130");
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

    /** No help shows picocli's placeholder for a flag's value ({@code --alpha=<alpha>}): each names what it takes. */
    @Test
    void everyFlagsValueHasALabel() {
        List<picocli.CommandLine> commands = new ArrayList<>(List.of(PerfLabCommand.commandLine(
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()))));
        for (int i = 0; i < commands.size(); i++) {
            commands.addAll(commands.get(i).getSubcommands().values().stream()
                    .filter(sub -> !commands.contains(sub)).toList());
        }

        assertThat(commands).hasSizeGreaterThan(9).allSatisfy(command -> assertThat(command.getUsageMessage())
                .as(command.getCommandSpec().qualifiedName()).doesNotContainPattern("=<[A-Za-z]+>"));
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
        return runMain(60, args);
    }

    /** Runs the entry point with {@code args} in a fresh JVM on the test class path, waiting up to {@code seconds}. */
    static Result runMain(int seconds, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(PerfLabApplication.class.getName());
        command.addAll(List.of(args));
        File stdout = File.createTempFile("perflab-cli", ".out");
        File stderr = File.createTempFile("perflab-cli", ".err");
        Process process = new ProcessBuilder(command).redirectOutput(stdout).redirectError(stderr).start();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            assertThat(false).as("CLI finished within " + seconds + " s").isTrue();
        }
        Result result = new Result(process.exitValue(),
                java.nio.file.Files.readString(stdout.toPath(), StandardCharsets.UTF_8),
                java.nio.file.Files.readString(stderr.toPath(), StandardCharsets.UTF_8));
        stdout.delete();
        stderr.delete();
        return result;
    }
}
