package io.perflab.cli;

import io.perflab.PerfLabApplication;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentJson;
import io.perflab.runner.experiment.ExperimentOutcome;
import io.perflab.runner.experiment.ExperimentRunner;
import io.perflab.runner.experiment.MultiVariantPlan;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.rpcbench.Stack;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.TrialResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code perflab peers}: the engine against its peers. The same rpc-bench workload runs on PerfLab's engine,
 * gRPC-java and bare Netty, {@code --runs} trials each, interleaved round by round, each trial in a fresh JVM;
 * then the ratios of the engine to each peer with their intervals, and the goals.
 */
@Command(name = "peers",
        description = "Compare PerfLab's engine with gRPC-java and bare Netty under the same rpc-bench workload: "
                + "--runs trials per stack, interleaved, each in a fresh JVM; prints each stack's means and the "
                + "ratios perflab/grpc and perflab/netty with 95% intervals and Welch p-values.")
final class PeersCommand implements Callable<Integer> {

    /** The stacks, in the order each round runs them. */
    static final List<Stack> STACKS = List.of(Stack.PERFLAB, Stack.GRPC, Stack.NETTY);

    @Spec
    private CommandSpec spec;

    @Option(names = "--runs", paramLabel = "N", required = true, description = "Trials per stack, ≥ 2.")
    private int runs;

    @Mixin
    private WorkloadOptions workloadOptions = new WorkloadOptions();

    @Option(names = "--trial-timeout", paramLabel = "S",
            description = "Kill a trial after this many seconds (default: warmup + run + 60).")
    private String trialTimeout;

    @Option(names = "--cooldown", paramLabel = "S", description = "Pause between trials (default: 0).")
    private String cooldown;

    @Option(names = "--max-failures", paramLabel = "N",
            description = "Stop once more trials than this have failed (default: 3).")
    private Integer maxFailures;

    @Option(names = "--jvm-args", paramLabel = "\"flags\"",
            description = "Fixed flags of every trial JVM (default: \"-Xms512m -Xmx512m -XX:+AlwaysPreTouch "
                    + "-XX:+UseSerialGC -Xbatch\").")
    private String jvmArgs;

    @Option(names = "--cpus", paramLabel = "LIST",
            description = "Pin every trial JVM to these CPUs with taskset -c (e.g. 1, 0-1); needs taskset.")
    private String cpus;

    @Option(names = "--out", paramLabel = "FILE.json",
            description = "Write the comparison and every trial as JSON (trials[].variant is the stack); "
                    + "rewritten after each trial.")
    private Path out;

    @Override
    public Integer call() {
        MultiVariantPlan plan = plan();
        TrialLauncher launcher = launcher();
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        LoadWarning.check(err);
        ExperimentRunner runner = new ExperimentRunner(launcher);
        List<TrialResult> results = new CopyOnWriteArrayList<>();
        int total = plan.trials().size();
        AbProgress progress = new AbProgress(stdout, System.console() != null, total,
                AbProgress.firstGuess(plan.variants().values().iterator().next()), System::nanoTime);
        CountDownLatch finished = new CountDownLatch(1);
        Thread interrupt = new Thread(() -> {
            runner.cancel();
            try {
                finished.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "perflab-peers-cancel");
        Runtime.getRuntime().addShutdownHook(interrupt);
        ExperimentOutcome outcome;
        try {
            stdout.println("perflab peers: " + total + " trials (" + plan.runsPerVariant() + " per stack: "
                    + String.join(", ", plan.variants().keySet()) + ", interleaved), each in a fresh process"
                    + (out == null ? "" : "; writing " + out));
            outcome = runner.run(plan, result -> {
                results.add(result);
                writeOut(plan, results, err);
                progress.finished(result);
            });
            progress.done();
            if (outcome.stop() != ExperimentOutcome.Stop.COMPLETED) {
                err.println("perflab peers: " + outcome.message());
            }
            long failed = results.size() - outcome.succeeded();
            if (failed > 0) {
                err.println("perflab peers: " + failed + " of " + results.size() + " trials did not succeed:");
                results.stream().filter(r -> !r.ok()).forEach(r -> err.println("  trial " + r.ordinal() + " ("
                        + r.variant() + ", " + r.status() + "): " + firstLine(r.error())));
            }
            stdout.print(PeersSummary.format(results));
            stdout.flush();
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(interrupt);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and waits for the finished latch above
            }
        }
        return switch (outcome.stop()) {
            case COMPLETED -> 0;
            case TOO_MANY_FAILURES -> AbCommand.EXIT_TOO_MANY_FAILURES;
            case CANCELLED -> AbCommand.EXIT_CANCELLED;
        };
    }

    /** The plan the flags describe; every mistake is a {@link ParameterException} naming its flag. */
    MultiVariantPlan plan() {
        if (workloadOptions.stackGiven()) {
            throw usage("--stack picks one stack; peers runs every stack (perflab, grpc, netty)");
        }
        Workload workload = workloadOptions.workload();
        Map<String, EngineVariant> variants = new LinkedHashMap<>();
        for (Stack stack : STACKS) {
            try {
                variants.put(stack.label(), EngineVariant.of(Map.of(), workload.withStack(stack)));
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }
        try {
            MultiVariantPlan plan = MultiVariantPlan.of(variants, runs);
            if (maxFailures != null) {
                plan = plan.withMaxFailures(maxFailures);
            }
            if (trialTimeout != null) {
                plan = plan.withTrialTimeout(seconds("--trial-timeout", trialTimeout));
            }
            if (cooldown != null) {
                plan = plan.withCooldown(seconds("--cooldown", cooldown));
            }
            if (jvmArgs != null) {
                plan = plan.withJvmArgs(jvmArgs.isBlank() ? List.of() : Arrays.asList(jvmArgs.trim().split("\\s+")));
            }
            return plan;
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private TrialLauncher launcher() {
        TrialLauncher launcher = TrialLauncher.ofThisJvm(PerfLabApplication.class.getName(), "trial");
        if (cpus == null) {
            return launcher;
        }
        try {
            return launcher.pinnedTo(cpus);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private void writeOut(MultiVariantPlan plan, List<TrialResult> results, PrintWriter err) {
        if (out == null) {
            return;
        }
        try {
            ExperimentJson.write(out, plan, new ArrayList<>(results));
        } catch (IOException e) {
            err.println("perflab peers: cannot write " + out + ": " + e.getMessage());
        }
    }

    private static Duration seconds(String flag, String text) {
        BigDecimal value;
        try {
            value = new BigDecimal(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a number of seconds, got '" + text + "'");
        }
        if (value.signum() < 0) {
            throw new IllegalArgumentException(flag + " must not be negative, got " + text);
        }
        return Duration.ofNanos(value.movePointRight(9).longValue());
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
