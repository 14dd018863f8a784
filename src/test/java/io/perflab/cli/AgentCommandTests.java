package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.agent.AgentHost;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The flags of {@code perflab agent}: its help, and a clear error naming each bad flag, before anything starts. */
class AgentCommandTests {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return PerfLabCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    }

    @Test
    void helpDescribesEveryFlag() {
        assertThat(run("agent", "--help")).isZero();
        assertThat(out.toString()).startsWith("Usage: perflab agent")
                .contains("--server", "--token", "--labels", "--cpus", "--name", "--commands", "--poll-wait",
                        "--jvm-args", "role agent");
    }

    @Test
    void theServerIsRequired() {
        assertThat(run("agent", "--token", "plt_x")).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("Missing required option: '--server=URL'");
    }

    @Test
    void aServerThatIsNotAnHttpUrlIsNamed() {
        assertThat(run("agent", "--server", "perflab:8080", "--token", "plt_x")).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("'--server': 'perflab:8080' is not an http:// or https:// URL");
    }

    @Test
    void aPortOutOfRangeAndCredentialsInTheUrlAreNamed() {
        // the agent retried for ever, "the call to /api/v1/agents failed", never naming the port
        assertThat(run("agent", "--server=http://127.0.0.1:99999", "--token", "plt_x"))
                .isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("Invalid value for option '--server': port 99999 is out of range "
                + "(1–65535)");
        assertThat(run("agent", "--server=http://agent:pw@127.0.0.1:8080", "--token", "plt_x"))
                .isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("credentials", "--token").doesNotContain("pw@");
    }

    @Test
    void aBlankTokenIsNamed() {
        assertThat(run("agent", "--server", "http://localhost:1", "--token", " ")).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("--token: an API token of role agent is required");
    }

    @Test
    void aTokenWithALineBreakIsNamedWithoutShowingIt() {
        // the HTTP client refused the header: "internal error: invalid header value: "Bearer plt_secret…", status 70
        assertThat(run("agent", "--server", "http://localhost:1", "--token", "plt_secret\nplt_other"))
                .isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("--token: the token given (by --token or $PERFLAB_TOKEN) holds a line "
                + "break").doesNotContain("plt_secret", "internal error");
    }

    @Test
    void aNameTheServiceWouldRefuseIsNamedBeforeAnythingIsSent() {
        // the service refused it, "name: 1 to 200 printable characters …", and the agent exited 3, as if it had failed
        String[][] cases = {{"bench\u001b[31m", "(no control or hidden format characters), got 'bench\\u001B[31m'"},
            {"n".repeat(201), "of 201 characters"}, {"", "got none; leave --name out for the host name"},
            {"  ", "got none"}};
        for (String[] c : cases) {
            int status = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30),
                    () -> run("agent", "--server", "http://localhost:1", "--token", "plt_x", "--name", c[0]));

            assertThat(status).as(err.toString()).isEqualTo(PerfLabCommand.EXIT_USAGE);
            assertThat(err.toString()).contains("--name: 1 to 200 printable characters", c[1])
                    .doesNotContain("\u001b", "cannot register");
        }
    }

    @Test
    void badLabelsAreNamedWithWhatIsWrong() {
        assertThat(run("agent", "--server", "http://localhost:1", "--token", "plt_x", "--labels", "arch"))
                .isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("--labels: 'arch' is not a label; write key=value");
    }

    @Test
    void aWordThatIsNotAJvmFlagIsNamedBeforeAnyTrialStartsWithIt() {
        // "-Xms1g Xmx1g": the second word would be the trial JVM's main class,
        // and every trial this agent ran would fail
        assertThat(run("agent", "--server", "http://localhost:1", "--token", "plt_x", "--jvm-args", "-Xms1g Xmx1g"))
                .isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("--jvm-args", "'Xmx1g' is not a JVM flag (each starts with '-')");
        assertThat(run("ab", "--with", "completion=monitor", "--jvm-args-with", "-Xint oops"))
                .isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("--jvm-args-with", "'oops' is not a JVM flag");
    }

    @Test
    void badCpusAreNamed() {
        // expanded CPU by CPU, a list up to CPU 2,000,000,000 ran the agent out of memory at its first paired design
        for (String cpus : new String[] {"one", "0-2000000000", "99999999999", "3-1", "0, 1"}) {
            assertThat(run("agent", "--server", "http://localhost:1", "--token", "plt_x", "--cpus", cpus))
                    .isEqualTo(PerfLabCommand.EXIT_USAGE);
            assertThat(err.toString()).contains("--cpus takes a CPU list such as 1 or 0-1 or 0,2 of CPUs 0 to 8191, "
                    + "each range from low to high, got '" + cpus + "'");
        }
        // taskset refused every trial JVM of every engine experiment the agent took
        assertThat(run("agent", "--server", "http://localhost:1", "--token", "plt_x", "--cpus", "8191"))
                .isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("--cpus 8191 names CPUs this process may not use (8191); it may use ");
    }

    @Test
    void aPollWaitOutOfRangeIsNamed() {
        assertThat(run("agent", "--server", "http://localhost:1", "--token", "plt_x", "--poll-wait", "0"))
                .isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("--poll-wait: must be between 1 and 60 seconds, got 0");
        assertThat(run("agent", "--server", "http://localhost:1", "--token", "plt_x", "--poll-wait", "soon"))
                .isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("--poll-wait': 'soon' is not a whole number up to 2147483647")
                .doesNotContain("an int");
    }

    /**
     * The service's refusal was printed as it came: a proxy or a service that is not PerfLab could send an escape
     * sequence or a right-to-left override, which the terminal obeyed. They are escaped, in a problem's detail and in
     * a body that is none, whose lines are kept.
     */
    @Test
    void aRefusalIsPrintedWithItsControlAndHiddenCharactersEscaped() throws Exception {
        var answer = new java.util.concurrent.atomic.AtomicReference<String[]>();
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = answer.get()[1].getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", answer.get()[0]);
            exchange.sendResponseHeaders(403, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            String[][] cases = {
                {"application/problem+json", "{\"detail\": \"token \\u001b[2J\\u202erevoked\\u2029\"}",
                    "the service answered 403: token \\u001B[2J\\u202Erevoked\\u2029"},
                {"text/plain", "Forbidden\u001b[31m\nby proxy\u202e", "the service answered 403: Forbidden\\u001B[31m\n"
                        + "by proxy\\u202E"}};
            for (String[] c : cases) {
                answer.set(c);
                err.getBuffer().setLength(0);

                int status = run("agent", "--server", "http://127.0.0.1:" + server.getAddress().getPort(), "--token",
                        "plt_x", "--no-fast-start");

                assertThat(status).as(err.toString()).isEqualTo(ServerOptions.EXIT_SERVER_ERROR);
                assertThat(err.toString()).contains("perflab agent: " + c[2]).doesNotContain("\u001b", "\u202e",
                        "\u2029");
            }
        } finally {
            server.stop(0);
        }
    }

    /** What the service sent into a line of the log (an experiment's name) went to the terminal as it came. */
    @Test
    void theLogShowsTheServicesTextEscapedAndATrialsOutputLineByLine() {
        assertThat(AgentCommand.logLine(java.time.Instant.EPOCH, "experiment 4 '\u001b[2J\u202eevil' refused"))
                .isEqualTo("1970-01-01T00:00:00Z perflab agent: experiment 4 '\\u001B[2J\\u202Eevil' refused");
        assertThat(AgentCommand.logLine(java.time.Instant.EPOCH, "could not start\n--- last output ---\n"
                + "java.lang.Error\n\tat Main.main"))
                .endsWith("could not start\n--- last output ---\njava.lang.Error\n\tat Main.main");
    }

    /**
     * The service counts an agent's fixed flags with each experiment's against its host's bound: the agent registers
     * those that size memory, its defaults' where it was given none, and none of the others (the agents page is open
     * to read, and a -D flag may hold a secret).
     */
    @Test
    void anAgentRegistersTheFixedFlagsOfItsTrialJvmsThatSizeMemory() {
        assertThat(AgentCommand.environment(List.of(), null))
                .containsEntry(AgentHost.TRIAL_MEMORY_FLAGS, "-Xms512m -Xmx512m")
                .containsKey(AgentHost.MEMORY)
                .doesNotContainKey("trial_cpus");
        assertThat(AgentCommand.environment(List.of("-Xmx6g", "-XX:+UseG1GC", "-Dcompany.secret=hunter2",
                "-XX:MaxDirectMemorySize=1g"), "2,3"))
                .containsEntry(AgentHost.TRIAL_MEMORY_FLAGS, "-Xmx6g -XX:MaxDirectMemorySize=1g")
                .containsEntry("trial_cpus", "2,3")
                .doesNotContainValue("hunter2");
        assertThat(AgentCommand.environment(List.of("-XX:+UseSerialGC"), null))
                .containsEntry(AgentHost.TRIAL_MEMORY_FLAGS, "");
    }
}
