package io.perflab.cli;

import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.runner.experiment.Variant;
import io.perflab.runner.rpcbench.Workload;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
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

    @Mixin
    private TrialProcessOptions processOptions = new TrialProcessOptions();

    @Override
    public Integer call() {
        ExperimentPlan plan = plan();
        PrintWriter stdout = spec.commandLine().getOut();
        PlanExecution execution = new PlanExecution("ab", stdout, spec.commandLine().getErr(),
                processOptions.out());
        return execution.run(plan, processOptions.launcher(spec, plan.jvmArgs()),
                done -> stdout.print(AbSummary.format(done.results())))
                .exitStatus();
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
            without = new EngineVariant(baseline.engineOptions(), baseline.workload(),
                    TrialProcessOptions.flags(jvmArgsWithout), Optional.empty());
            with = new EngineVariant(change.engineOptions(), change.workload(), TrialProcessOptions.flags(jvmArgsWith),
                    Optional.empty());
        }
        try {
            return processOptions.applyTo(ExperimentPlan.of(without, with, runs).withOrder(TrialOrder.parse(order))
                    .withSeed(seed));
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
