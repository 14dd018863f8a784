package io.perflab.cli;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.MultiVariantPlan;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.rpcbench.InvalidSettingException;
import io.perflab.runner.rpcbench.Stack;
import io.perflab.runner.rpcbench.Workload;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
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
                + "ratios perflab/grpc and perflab/netty with 95%% intervals and Welch p-values.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.DONE, ExitCodes.TOO_MANY_FAILURES, ExitCodes.USAGE, ExitCodes.INTERNAL,
                ExitCodes.OUT_NOT_WRITTEN, ExitCodes.INTERRUPTED})
final class PeersCommand implements Callable<Integer> {

    /** The stacks, in the order each round runs them. */
    static final List<Stack> STACKS = List.of(Stack.PERFLAB, Stack.GRPC, Stack.NETTY);

    @Spec
    private CommandSpec spec;

    @Option(names = "--runs", paramLabel = "N", required = true,
            description = "Trials per stack, 2 to " + ExperimentPlan.MAX_RUNS_PER_VARIANT + ".")
    private int runs;

    @Mixin
    private WorkloadOptions workloadOptions = new WorkloadOptions();

    @Mixin
    private TrialProcessOptions processOptions = new TrialProcessOptions();

    @Override
    public Integer call() {
        MultiVariantPlan plan = plan();
        java.nio.file.Path outFile = processOptions.out(spec);
        TrialLauncher launcher = processOptions.launcher(spec, plan.jvmArgs());
        PrintWriter stdout = spec.commandLine().getOut();
        PlanExecution execution = new PlanExecution("peers", stdout, spec.commandLine().getErr(), outFile);
        return execution.run(plan, launcher, done -> stdout.print(PeersSummary.format(done.results())))
                .exitStatus();
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
                variants.put(stack.label(), EngineVariant.of(EngineOptions.defaults(), workload.withStack(stack)));
            } catch (InvalidSettingException e) {
                throw workloadOptions.invalid(e);
            }
        }
        try {
            return processOptions.applyTo(MultiVariantPlan.of(variants, runs));
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
