package io.perflab.cli;

import io.perflab.agent.AgentClient;
import io.perflab.agent.AgentHost;
import io.perflab.agent.AgentLoop;
import io.perflab.agent.AgentProtocol.Registration;
import io.perflab.agent.HostCounts;
import io.perflab.agent.HostLabels;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.FastStart;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.rpcbench.HostCount;
import io.perflab.system.PrintableText;
import io.perflab.system.Texts;
import io.perflab.upload.OutputMetricsReader;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code perflab agent --server URL --token T [--labels k=v,…] [--cpus LIST]}: runs on a benchmark host, registers
 * with its host environment, and runs the experiments the service assigns it until stopped (SIGTERM or Ctrl-C hand
 * the running experiment back, for another agent of the same labels to resume, or cut a waiting poll short, and tell
 * the service that the agent leaves).
 */
@Command(name = "agent", mixinStandardHelpOptions = true,
        description = {"Run experiments of a PerfLab service on this host: register with its environment and labels, "
                + "wait for an experiment whose host labels this host carries, run its trials, post each one as it "
                + "ends, heartbeat.",
                "The token must have role agent (perflab token create NAME --role agent) or be an admin's."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:stopped (SIGTERM or Ctrl-C), the running experiment handed back", ExitCodes.USAGE,
                ExitCodes.SERVER, ExitCodes.INTERNAL})
final class AgentCommand implements Callable<Integer> {

    /** How long a stop waits for the running experiment to be handed back before the JVM halts. */
    static final Duration STOP_GRACE = Duration.ofSeconds(30);

    @Option(names = "--server", required = true, paramLabel = "URL", converter = ServerOptions.AgentUrl.class,
            description = "PerfLab service, e.g. http://perflab.example.com:8080")
    String server;

    @Option(names = "--token", paramLabel = "TOKEN", defaultValue = "${env:PERFLAB_TOKEN}",
            description = "API token of role agent (Authorization: Bearer); default: $PERFLAB_TOKEN")
    String token;

    @Option(names = "--labels", paramLabel = "k=v,…", defaultValue = "",
            description = "labels of this host, e.g. arch=x86_64,kernel=6.8; experiments asking for labels run only "
                    + "on hosts that carry them all")
    String labels;

    @Option(names = "--cpus", paramLabel = "LIST",
            description = "pin the trial JVMs of engine experiments to these CPUs with taskset -c (e.g. 2-7), as "
                    + "perflab ab --cpus does; needs taskset")
    String cpus;

    /** The longest name the service registers an agent under. */
    private static final int MAX_NAME = 200;

    @Option(names = "--name", paramLabel = "NAME", description = "this agent's name on the agents page (default: "
            + "the host name)")
    String name;

    @Option(names = "--commands", description = "also run command experiments (shell commands the service's "
            + "administrators queued); off by default")
    boolean commands;

    @Option(names = "--jvm-args", paramLabel = "\"flags\"", converter = TrialProcessOptions.JvmFlags.class,
            description = "fixed flags of every trial JVM on this host (default: the measuring flags of perflab ab, "
                    + "\"-Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UseSerialGC -Xbatch "
                    + "-XX:-UseDynamicNumberOfCompilerThreads\"); each variant's own flags come after them")
    String jvmArgs;

    @Option(names = "--no-fast-start",
            description = "start trial JVMs from the executable jar, not from the jar extracted once and the "
                    + "class-data sharing archive made once under ~/.cache/perflab (about 3x slower to start)")
    boolean noFastStart;

    @Option(names = "--poll-wait", paramLabel = "S", defaultValue = "20",
            description = "seconds each poll waits for an experiment (1..60, default: ${DEFAULT-VALUE})")
    int pollWait;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * What this agent registers of its host: {@link AgentHost#environment()}, the fixed flags its trial JVMs start
     * with that size memory (counted with each experiment's flags against the memory a trial JVM may take on this
     * host), and the CPUs they are pinned to, if any.
     *
     * @param fixedFlags the flags of {@code --jvm-args}, none for the defaults
     */
    static Map<String, String> environment(List<String> fixedFlags, String cpus) {
        Map<String, String> environment = AgentHost.environment();
        environment.put(AgentHost.TRIAL_MEMORY_FLAGS, AgentHost.trialMemoryFlags(fixedFlags.isEmpty()
                ? ExperimentPlan.DEFAULT_JVM_ARGS : fixedFlags));
        if (cpus != null) {
            environment.put("trial_cpus", cpus);
        }
        return environment;
    }

    /**
     * A line of the agent's log as the terminal shows it: what the service sent into it (an experiment's name, an
     * answer that is not JSON) with its control characters and those that hide, reorder or break text escaped, so that
     * it cannot drive the terminal; the lines and tabs of a trial JVM's output kept.
     */
    static String logLine(Instant at, String line) {
        return at + " perflab agent: " + PrintableText.Validator.shownLines(line);
    }

    @Override
    public Integer call() {
        URI base = URI.create(server);
        if (token == null || token.isBlank()) {
            throw new ParameterException(spec.commandLine(), "--token: an API token of role agent is required "
                    + "(or set PERFLAB_TOKEN); create one with: perflab token create NAME --role agent");
        }
        if (ServerOptions.tokenProblem(token) != null) {
            throw new ParameterException(spec.commandLine(), ServerOptions.tokenProblem(token));
        }
        if (name != null && name.isBlank()) {
            // it was the host name, as if --name had been left out: a script's empty variable went unnoticed
            throw new ParameterException(spec.commandLine(), "--name: 1 to " + MAX_NAME + " printable characters, got "
                    + "none; leave --name out for the host name");
        }
        if (name != null && (name.strip().length() > MAX_NAME
                || PrintableText.Validator.firstProblem(name.strip(), false) >= 0)) {
            // the service's rule for an agent's name: its refusal was status 3, as if the service had failed
            throw new ParameterException(spec.commandLine(), "--name: 1 to " + MAX_NAME + " printable characters (no "
                    + "control or hidden format characters), got '" + PrintableText.Validator.shown(Texts.cut(
                    name.strip(), 80)) + "'" + (name.strip().length() > MAX_NAME ? " of " + name.strip().length()
                    + " characters" : ""));
        }
        HostLabels hostLabels;
        try {
            hostLabels = HostLabels.parse(labels);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--labels: " + e.getMessage());
        }
        if (pollWait < 1 || pollWait > 60) {
            throw new ParameterException(spec.commandLine(), "--poll-wait: must be between 1 and 60 seconds, got "
                    + pollWait);
        }
        TrialLauncher launcher = TrialLauncher.ofThisJvm();
        if (cpus != null) {
            try {
                launcher = launcher.pinnedTo(cpus);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        List<String> fixedFlags = jvmArgs == null ? List.of() : TrialProcessOptions.flags(jvmArgs);
        PrintWriter err = spec.commandLine().getErr();
        Consumer<String> log = line -> {
            err.println(logLine(Instant.now(), line));
            err.flush();
        };
        // at the first engine experiment, not here: a command experiment starts no trial JVM to prepare
        UnaryOperator<TrialLauncher> fastStart = noFastStart ? UnaryOperator.identity()
                : engineTrials -> FastStart.prepare(engineTrials, FastStart.defaultCacheDir(),
                        fixedFlags.isEmpty() ? ExperimentPlan.DEFAULT_JVM_ARGS : fixedFlags, log);
        Map<String, String> environment = environment(fixedFlags, cpus);
        String agentName = name == null || name.isBlank() ? environment.getOrDefault("host", "agent") : name.strip();
        // tried once: registering again after the service declared this agent lost says the same
        HostCounts counts = AgentHost.counts(fixedFlags);
        for (HostCount count : HostCount.values()) {
            String refused = ": the service gives this agent no experiment whose target is "
                    + String.join(" or ", count.metrics());
            Optional<String> notCounted = AgentHost.notCounted(count);
            notCounted.ifPresent(reason -> log.accept("this host counts no " + count.counted() + " (" + reason + ")"
                    + refused));
            if (!counts.makes(count) && notCounted.isEmpty()) {
                log.accept("--jvm-args turn the counting of " + count.counted() + " off (-D" + count.property()
                        + "=false)" + refused);
            }
        }
        AgentLoop loop = new AgentLoop(new AgentClient(base, token.strip()),
                Registration.of(agentName, hostLabels.labels(), environment, commands, counts), launcher,
                fastStart, new OutputMetricsReader(), pollWait, fixedFlags, log);
        // SIGTERM or Ctrl-C: the JVM halts when its hooks return, so this one waits until the experiment running
        // now is handed back (its cut-short trial and its end posted) and the leave is posted
        Thread stopper = new Thread(() -> {
            loop.stop();
            loop.awaitEnd(STOP_GRACE);
        }, "perflab-agent-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        try {
            loop.run();
            return 0;
        } catch (AgentClient.Refused e) {
            err.println("perflab agent: " + e.getMessage() + ServerOptions.pathHint(server, e.status()));
            err.flush();
            return ServerOptions.EXIT_SERVER_ERROR;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it stopped the loop, which is why run returned
            }
        }
    }
}
