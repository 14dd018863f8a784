package io.perflab.cli;

import io.perflab.PerfLabApplication;
import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentJson;
import io.perflab.runner.experiment.ExperimentOutcome;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.ExperimentRunner;
import io.perflab.runner.experiment.PlannedTrial;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.experiment.TrialListener;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.runner.experiment.Variant;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.TrialResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
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
 * {@code perflab ab}: a local A/B experiment, each trial in a fresh JVM (or a shell command per trial), with
 * progress, an optional experiment file and the statistics table (Welch, Holm, verdicts) at the end.
 */
@Command(name = "ab",
        description = "Run an A/B experiment: --runs trials per variant, each in a fresh JVM with identical heap/GC "
                + "flags (or shell commands with --with-cmd/--without-cmd), then the Welch comparison of every metric.")
final class AbCommand implements Callable<Integer> {

    /** Exit status when the experiment stopped because too many trials failed. */
    static final int EXIT_TOO_MANY_FAILURES = 1;
    /** Exit status after Ctrl-C, as shells report SIGINT. */
    static final int EXIT_CANCELLED = 130;

    @Spec
    private CommandSpec spec;

    @Option(names = "--runs", paramLabel = "N", required = true, description = "Trials per variant, ≥ 2.")
    private int runs;

    @Option(names = "--without", paramLabel = "option=value", arity = "1..*",
            description = "Engine options of the baseline (default: the engine's defaults); stack=grpc or "
                    + "stack=netty puts another RPC stack on this side.")
    private List<String> withoutOptions = new ArrayList<>();

    @Option(names = "--with", paramLabel = "option=value", arity = "1..*",
            description = "Engine options of the change (default: the engine's defaults); stack=… as for "
                    + "--without.")
    private List<String> withOptions = new ArrayList<>();

    @Mixin
    private WorkloadOptions workloadOptions = new WorkloadOptions();

    @Option(names = "--order", paramLabel = "interleaved|randomized|blocked",
            description = "Trial order (default: interleaved).")
    private String order = TrialOrder.INTERLEAVED.label();

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the randomized order (default: 1).")
    private long seed = 1;

    @Option(names = "--trial-timeout", paramLabel = "S",
            description = "Kill a trial after this many seconds (default: warmup + run + 60).")
    private String trialTimeout;

    @Option(names = "--cooldown", paramLabel = "S", description = "Pause between trials (default: 0).")
    private String cooldown;

    @Option(names = "--max-failures", paramLabel = "N",
            description = "Stop once more trials than this have failed (default: 3).")
    private int maxFailures = ExperimentPlan.DEFAULT_MAX_FAILURES;

    @Option(names = "--jvm-args", paramLabel = "\"flags\"",
            description = "Fixed flags of every trial JVM (default: \"-Xms512m -Xmx512m -XX:+AlwaysPreTouch "
                    + "-XX:+UseSerialGC -Xbatch\").")
    private String jvmArgs;

    @Option(names = "--jvm-args-with", paramLabel = "\"flags\"", description = "Extra JVM flags of the change.")
    private String jvmArgsWith = "";

    @Option(names = "--jvm-args-without", paramLabel = "\"flags\"", description = "Extra JVM flags of the baseline.")
    private String jvmArgsWithout = "";

    @Option(names = "--with-cmd", paramLabel = "\"command\"",
            description = "Command experiment: the change, run with /bin/sh -c once per trial.")
    private String withCommand;

    @Option(names = "--without-cmd", paramLabel = "\"command\"",
            description = "Command experiment: the baseline, run with /bin/sh -c once per trial.")
    private String withoutCommand;

    @Option(names = "--cpus", paramLabel = "LIST",
            description = "Pin every trial JVM to these CPUs with taskset -c (e.g. 1, 0-1); needs taskset.")
    private String cpus;

    @Option(names = "--out", paramLabel = "FILE.json",
            description = "Write the experiment and every trial as JSON; rewritten after each trial.")
    private Path out;

    @Override
    public Integer call() {
        ExperimentPlan plan = plan();
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        LoadWarning.check(err);
        ExperimentRunner runner = new ExperimentRunner(launcher());
        List<TrialResult> results = new CopyOnWriteArrayList<>();
        AbProgress progress = new AbProgress(stdout, System.console() != null, plan);
        CountDownLatch finished = new CountDownLatch(1);
        Thread interrupt = new Thread(() -> {
            runner.cancel();
            try {
                finished.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "perflab-ab-cancel");
        Runtime.getRuntime().addShutdownHook(interrupt);
        ExperimentOutcome outcome;
        try {
            stdout.println("perflab ab: " + plan.trials().size() + " trials (" + plan.runsPerVariant()
                    + " per variant, " + plan.order().label() + "), each in a fresh process"
                    + (out == null ? "" : "; writing " + out));
            outcome = runner.run(plan, new TrialListener() {
                @Override
                public void trialStarted(PlannedTrial trial) {
                    progress.started(trial);
                }

                @Override
                public void trialFinished(TrialResult result) {
                    results.add(result);
                    writeOut(plan, results, err);
                    progress.finished(result);
                }
            });
            progress.done();
            if (outcome.stop() != ExperimentOutcome.Stop.COMPLETED) {
                err.println("perflab ab: " + outcome.message());
            }
            long failed = results.size() - outcome.succeeded();
            if (failed > 0) {
                err.println("perflab ab: " + failed + " of " + results.size() + " trials did not succeed:");
                results.stream().filter(r -> !r.ok()).forEach(r -> err.println("  trial " + r.ordinal() + " ("
                        + r.variant() + ", " + r.status() + "): " + firstLine(r.error())));
            }
            stdout.print(AbSummary.format(results));
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
            case TOO_MANY_FAILURES -> EXIT_TOO_MANY_FAILURES;
            case CANCELLED -> EXIT_CANCELLED;
        };
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

    private void writeOut(ExperimentPlan plan, List<TrialResult> results, PrintWriter err) {
        if (out == null) {
            return;
        }
        try {
            ExperimentJson.write(out, plan, results);
        } catch (IOException e) {
            err.println("perflab ab: cannot write " + out + ": " + e.getMessage());
        }
    }

    /** The plan the flags describe; every mistake is a {@link ParameterException} naming its flag. */
    ExperimentPlan plan() {
        Variant without;
        Variant with;
        boolean commands = withCommand != null || withoutCommand != null;
        if (commands) {
            if (withCommand == null || withoutCommand == null) {
                throw usage("a command experiment needs both --with-cmd and --without-cmd");
            }
            if (!withOptions.isEmpty() || !withoutOptions.isEmpty()) {
                throw usage("--with/--without set engine options; a command experiment (--with-cmd/--without-cmd) "
                        + "takes none");
            }
            try {
                without = new CommandVariant(withoutCommand);
                with = new CommandVariant(withCommand);
            } catch (IllegalArgumentException e) {
                throw usage("--with-cmd/--without-cmd: " + e.getMessage());
            }
        } else {
            Workload workload = workloadOptions.workload();
            EngineOptionArguments.VariantArguments baseline = EngineOptionArguments.parseVariant(spec.commandLine(),
                    "--without", withoutOptions, workload);
            EngineOptionArguments.VariantArguments change = EngineOptionArguments.parseVariant(spec.commandLine(),
                    "--with", withOptions, workload);
            without = new EngineVariant(baseline.engineOptions(), baseline.workload(), flags(jvmArgsWithout),
                    Optional.empty());
            with = new EngineVariant(change.engineOptions(), change.workload(), flags(jvmArgsWith), Optional.empty());
        }
        try {
            ExperimentPlan plan = ExperimentPlan.of(without, with, runs).withOrder(TrialOrder.parse(order))
                    .withSeed(seed).withMaxFailures(maxFailures);
            if (trialTimeout != null) {
                plan = plan.withTrialTimeout(seconds("--trial-timeout", trialTimeout));
            }
            if (cooldown != null) {
                plan = plan.withCooldown(seconds("--cooldown", cooldown));
            }
            if (jvmArgs != null) {
                plan = plan.withJvmArgs(flags(jvmArgs));
            }
            return plan;
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
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

    private static List<String> flags(String text) {
        return text.isBlank() ? List.of() : Arrays.asList(text.trim().split("\\s+"));
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
