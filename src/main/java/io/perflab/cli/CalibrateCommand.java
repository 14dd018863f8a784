package io.perflab.cli;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.experiment.TrialOrder;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code perflab calibrate}: how trustworthy {@code perflab ab} is on this machine. It runs A/A experiments — the
 * same engine options on both sides — and reports per headline metric the false-positive rate of Welch's test,
 * the trials' coefficient of variation and the minimum detectable effect of a full experiment.
 *
 * <p>The experiments are one interleaved plan of {@code experiments × runs} trials per side, cut into consecutive
 * blocks of {@code runs} + {@code runs}: each block is exactly the interleaved experiment {@code perflab ab --runs
 * runs} would have run at that time, without a JVM start of the orchestrator between them.
 */
@Command(name = "calibrate",
        description = "Run A/A experiments (the same variant on both sides, each trial a fresh JVM) and report per "
                + "headline metric the false-positive rate of Welch's test, the coefficient of variation and the "
                + "minimum detectable effect of an experiment of --mde-runs trials per side.")
final class CalibrateCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--experiments", paramLabel = "N", description = "A/A experiments (default: 20).")
    private int experiments = 20;

    @Option(names = "--runs", paramLabel = "N", description = "Trials per side in each experiment, ≥ 2 (default: 10).")
    private int runs = 10;

    @Option(names = "--set", paramLabel = "option=value", arity = "1..*",
            description = "Engine options of both sides (default: the engine's defaults).")
    private List<String> options = new ArrayList<>();

    @Option(names = "--alpha", paramLabel = "A", description = "Significance level of each test (default: 0.05).")
    private double alpha = 0.05;

    @Option(names = "--mde-runs", paramLabel = "N",
            description = "Trials per side of the experiment whose minimum detectable effect is reported "
                    + "(default: 40).")
    private int mdeRuns = 40;

    @Mixin
    private WorkloadOptions workloadOptions = new WorkloadOptions();

    @Mixin
    private TrialProcessOptions processOptions = new TrialProcessOptions();

    @Override
    public Integer call() {
        ExperimentPlan plan = plan();
        TrialLauncher launcher = processOptions.launcher(spec, plan.jvmArgs());
        Calibration calibration = new Calibration(experiments, runs, alpha, mdeRuns);
        PrintWriter stdout = spec.commandLine().getOut();
        PlanExecution execution = new PlanExecution("calibrate", stdout, spec.commandLine().getErr(),
                processOptions.out());
        long start = System.nanoTime();
        return execution.run(plan, launcher, done -> stdout.print(
                calibration.format(done.results(), Duration.ofNanos(System.nanoTime() - start)))).exitStatus();
    }

    /** The plan the flags describe; every mistake is a {@link ParameterException} naming its flag. */
    ExperimentPlan plan() {
        if (experiments < 1) {
            throw usage("--experiments must be at least 1, got " + experiments);
        }
        if (runs < 2) {
            throw usage("--runs must be at least 2, got " + runs);
        }
        if (!(alpha > 0 && alpha < 1)) {
            throw usage("--alpha must lie between 0 and 1, got " + alpha);
        }
        if (mdeRuns < 2) {
            throw usage("--mde-runs must be at least 2, got " + mdeRuns);
        }
        EngineOptions engine = EngineOptionArguments.parse(spec.commandLine(), "--set", options);
        EngineVariant variant = new EngineVariant(engine, workloadOptions.workload(), List.of(), Optional.empty());
        try {
            return processOptions.applyTo(ExperimentPlan.of(variant, variant, Math.multiplyExact(experiments, runs))
                    .withOrder(TrialOrder.INTERLEAVED));
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw usage(e.getMessage());
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
