package io.perflab.cli;

import io.perflab.paired.PairedInput;
import io.perflab.paired.SequentialStopping;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentJson;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.runner.rpcbench.HostCount;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.rpcbench.WorkloadSettings;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
 * the trials' coefficient of variation and the minimum detectable effect of a full experiment. With
 * {@code --design duet|alternating} the experiments are blocks of {@code --pairs} pairs judged pair by pair; with
 * {@code --inject serverWorkNanos=N} the {@code with} side carries a known cost and the report is the estimate's
 * bias, the intervals' coverage and the power at that size ({@link EffectCalibration}).
 *
 * <p>The experiments are one interleaved plan of {@code experiments × runs} trials per side, cut into consecutive
 * blocks of {@code runs} + {@code runs}: each block is exactly the interleaved experiment {@code perflab ab --runs
 * runs} would have run at that time, without a JVM start of the orchestrator between them. With {@code --target} a
 * paired run's blocks are also judged as sequential experiments ({@link SequentialCalibration}).
 *
 * <p>Over 300 lines because a run and a stored run judged again share every flag and its checks.
 */
@Command(name = "calibrate",
        description = "Run A/A experiments (the same variant on both sides) and report per headline metric the "
                + "false-positive rate of each experiment's test (Welch's for fresh trials, the paired t-test for "
                + "pairs), the coefficient of variation and the minimum detectable effect of an experiment of "
                + "--mde-runs trials per side; --from judges a stored run again.",
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:done",
                "1:too many failed trials (--max-failures)",
                "2:a bad command line; the message names the flag, and the file of --from or --reference that cannot "
                        + "be read, or of which nothing can be judged (no trials, none successful, too few of each "
                        + "side in every experiment)",
                PerfLabCommand.EXIT_INTERNAL_ERROR + ":an internal error, said in one line; java -D"
                        + PerfLabCommand.DEBUG_PROPERTY + "=true -jar … adds its stack trace",
                PlanExecution.EXIT_OUT_NOT_WRITTEN + ":the --out file could not be written after the last trial",
                "130:interrupted (Ctrl-C)"})
final class CalibrateCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--experiments", paramLabel = "N", description = "A/A experiments (default: 20); --experiments "
            + "× --runs (or --pairs) at most " + ExperimentPlan.MAX_RUNS_PER_VARIANT + ".")
    private int experiments = 20;

    @Option(names = "--runs", paramLabel = "N",
            description = "Trials per side in each experiment of the fresh design, ≥ 2 (default: 10).")
    private int runs = 10;

    @Option(names = "--set", paramLabel = "option=value", arity = "1..*",
            description = "Engine options of both sides (default: the engine's defaults).")
    private List<String> options = new ArrayList<>();

    @Option(names = "--alpha", paramLabel = "A", converter = DecimalArguments.SignificanceLevel.class,
            description = "Significance level of each test (default: 0.05).")
    private double alpha = 0.05;

    @Option(names = "--mde-runs", paramLabel = "N",
            description = "Trials per side of the experiment whose minimum detectable effect the fresh design's "
                    + "A/A report gives (default: 40).")
    private int mdeRuns = 40;

    @Option(names = "--design", paramLabel = "fresh|duet|alternating",
            description = "The design of each experiment (default: alternating, or fresh when --runs is given): "
                    + "fresh trials, or pairs of JVMs.")
    private String design;

    @Option(names = "--pairs", paramLabel = "K",
            description = "Pairs in each experiment of a paired design (default: " + PairedInput.DEFAULT_PAIRS
                    + ", judged also as the default experiment, with the targets "
                    + PairedInput.DEFAULT_TARGETS_FORMATTED
                    + ", unless --target says otherwise).")
    private int pairs = PairedInput.DEFAULT_PAIRS;

    @Option(names = "--windows-per-pair", paramLabel = "M",
            description = "Windows of each variant per pair of a paired design (default: 3).")
    private int windowsPerPair = AbCommand.DEFAULT_WINDOWS;

    @Option(names = "--inject", paramLabel = "serverWorkNanos=N",
            description = "A known effect: the with side's server spins N ns of user CPU per call (at most "
                    + WorkloadSettings.MAX_SERVER_WORK_NANOS + "); reports bias, coverage and power instead of the "
                    + "false-positive rate.")
    private String inject;

    @Option(names = "--reference", paramLabel = "FILE.json",
            description = "With --inject: an experiment file (ab --out) of a long run with the same injection, whose "
                    + "estimates are the reference effects (default: the injected CPU per call); one that gives none "
                    + "is refused before anything runs.")
    private Path referenceFile;

    @Option(names = "--target", paramLabel = "METRIC:PCT%|METRIC:settled|METRIC:mde=PCT%",
            description = "Paired designs: judge each experiment also as a sequential one, as perflab ab --pairs K "
                    + "--target would (a look after every pair, O'Brien–Fleming spending over --pairs), and report "
                    + "the stopping rule's false positives, or its power and coverage, and the pairs and time it "
                    + "used; repeatable. Every experiment still runs its --pairs pairs, for the fixed-size table.")
    private List<String> targets = new ArrayList<>();

    @Option(names = "--budget", paramLabel = "DURATION",
            description = "With --target: each sequential experiment starts no pair that would end after this long "
                    + "(e.g. 6m, 90s), the pairs' times as they were measured.")
    private String budget;

    @Option(names = "--from", paramLabel = "FILE.json",
            description = "Judge a run stored with --out again instead of running one: --experiments, --pairs or "
                    + "--runs, --alpha, --mde-runs, --inject and --reference say how it is cut and judged; the "
                    + "design, workload and JVMs are the file's (the flags that set them are refused).")
    private Path from;

    @Mixin
    private WorkloadOptions workloadOptions = new WorkloadOptions();

    @Mixin
    private TrialProcessOptions processOptions = new TrialProcessOptions();

    @Override
    public Integer call() {
        if (from != null) {
            return reportFrom(from);
        }
        ExperimentPlan plan = plan();
        EffectCalibration effects = effectCalibration(plan.design());
        java.nio.file.Path outFile = processOptions.out(spec, referenceFile == null ? Map.of()
                : Map.of("--reference", referenceFile));
        TrialLauncher launcher = processOptions.launcher(spec, plan.jvmArgs());
        Calibration calibration = new Calibration(experiments, runs, alpha, mdeRuns);
        PrintWriter stdout = spec.commandLine().getOut();
        PlanExecution execution = new PlanExecution("calibrate", stdout, spec.commandLine().getErr(), outFile);
        Optional<SequentialCalibration> sequential = sequential(effects, Optional.empty(), Optional.of(plan));
        long start = System.nanoTime();
        java.util.function.Consumer<PlanExecution.Finished> report = done -> {
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            stdout.print(plan.design().paired() || effects.injectedNanos() > 0
                    ? effects.format(done.results(), elapsed) : calibration.format(done.results(), elapsed));
            sequential.ifPresent(judged -> stdout.print(judged.format(done.results())));
        };
        return (plan.design().paired() ? execution.runPairs(plan, launcher, PairStoppingRule.NEVER, report)
                : execution.run(plan, launcher, report)).exitStatus();
    }

    /**
     * The report of a stored run, cut into {@code --experiments} blocks of the file's design; the file must hold
     * exactly that many pairs or trials per side, so that no block is judged on a part of another.
     */
    private int reportFrom(Path file) {
        CalibrateFlags.checkStoredRun(spec.commandLine(), file);
        ExperimentJson stored = experimentFile("--from", file);
        ExperimentDesign storedDesign;
        try {
            storedDesign = stored.design();
        } catch (IllegalArgumentException e) {
            throw usage("--from " + file + ": its plan's design '" + stored.experiment().get("design")
                    + "' is none of fresh, duet, alternating");
        }
        int perExperiment = storedDesign.paired() ? pairs : runs;
        CalibrateFlags.checkSize(spec.commandLine(), experiments, storedDesign.paired(), perExperiment);
        CalibrateFlags.checkValues(spec.commandLine(), mdeRuns);
        CalibrateFlags.checkAgainstDesign(spec.commandLine(), storedDesign, CalibrateFlags.Source.file(file),
                inject != null);
        CalibrateFlags.checkSidesAlike(spec.commandLine(), file, stored.experiment(), injectedNanos());
        String plannedKey = storedDesign.paired() ? "pairs" : "runsPerVariant";
        Object planned = stored.experiment().get(plannedKey);
        long wanted = (long) experiments * perExperiment;
        if (planned == null) {
            throw usage("--from " + file + ": its plan names no number of " + (storedDesign.paired() ? "pairs"
                    : "trials per side") + " (experiment." + plannedKey + "), so it cannot be cut into --experiments "
                    + experiments + " × " + (storedDesign.paired() ? "--pairs " : "--runs ") + perExperiment);
        }
        if (!(planned instanceof Integer || planned instanceof Long)) {
            // 16.0 was "holds a plan of 16.0 pairs, not --experiments 2 × --pairs 8 = 16"
            throw usage("--from " + file + ": its plan's experiment." + plannedKey + " is "
                    + ExperimentFiles.shown(String.valueOf(planned)) + ", not a whole number");
        }
        if (((Number) planned).longValue() != wanted) {
            throw usage("--from " + file + " holds a plan of " + planned + (storedDesign.paired() ? " pairs"
                    : " trials per side") + ", not --experiments " + experiments + " × "
                    + (storedDesign.paired() ? "--pairs " : "--runs ") + perExperiment + " = " + wanted);
        }
        List<TrialResult> results = stored.trials();
        Duration elapsed = experimentsTime(results, storedDesign.paired(), perExperiment);
        // made for a fresh A/A file too, as for a run, so that --reference without --inject is refused there
        EffectCalibration effects = effectCalibration(storedDesign);
        long succeeded = results.stream().filter(TrialResult::ok).count();
        boolean byEffects = storedDesign.paired() || injectedNanos() > 0;
        Calibration calibration = new Calibration(experiments, runs, alpha, mdeRuns);
        try {
            if (succeeded == 0 || (byEffects ? !effects.judgesAny(results) : calibration.analyze(results).isEmpty())) {
                throw usage("--from " + file + ": nothing to judge: " + (results.isEmpty() ? "it has no trials"
                        : succeeded == 0 ? "none of its " + results.size() + " trials succeeded"
                        : "no experiment of it has the successful " + (storedDesign.paired() ? "pairs" : "trials of "
                        + "each side") + " that its test needs"));
            }
            Optional<SequentialCalibration> sequential = sequential(effects, Optional.of(results), Optional.empty());
            spec.commandLine().getOut().print(byEffects ? effects.format(results, elapsed)
                    : calibration.format(results, elapsed));
            sequential.ifPresent(judged -> spec.commandLine().getOut().print(judged.format(results)));
        } catch (IllegalArgumentException e) {
            throw usage("--from " + file + ": " + e.getMessage());
        }
        spec.commandLine().getOut().flush();
        return 0;
    }

    /**
     * The time the stored experiments took: per experiment, from its first trial's start to its last trial's end,
     * summed, so that a file put together from several runs does not count the time between them.
     */
    static Duration experimentsTime(List<TrialResult> results, boolean paired, int perExperiment) {
        Map<Integer, Instant[]> spans = new java.util.TreeMap<>();
        for (TrialResult r : results) {
            if (r.start() == null || r.end() == null || (paired && r.pair() == null)) {
                continue;
            }
            int block = paired ? r.pair().index() / perExperiment : r.ordinal() / (2 * perExperiment);
            Instant[] span = spans.computeIfAbsent(block, b -> new Instant[] {r.start(), r.end()});
            span[0] = r.start().isBefore(span[0]) ? r.start() : span[0];
            span[1] = r.end().isAfter(span[1]) ? r.end() : span[1];
        }
        return spans.values().stream().map(span -> Duration.between(span[0], span[1]))
                .reduce(Duration.ZERO, Duration::plus);
    }

    /** How the run is judged: its design, blocks, injection and reference. */
    private EffectCalibration effectCalibration(ExperimentDesign design) {
        Map<String, Double> reference = Map.of();
        String source = "the injected " + injectedNanos() + " ns per call over the baseline's CPU per call in this "
                + "run (CPU per call only: its effect on the other metrics is not known in advance)";
        if (referenceFile != null) {
            if (injectedNanos() == 0) {
                throw usage("--reference goes with --inject: it holds the effect the injection should show");
            }
            List<TrialResult> longRun = experimentFile("--reference", referenceFile).trials();
            reference = ReferenceRun.effects(longRun);
            if (reference.isEmpty()) {
                throw usage("--reference " + referenceFile + ": it gives no reference effect: "
                        + ReferenceRun.lacking(longRun));
            }
            source = "the estimates of the long run in " + referenceFile;
        }
        return new EffectCalibration(design, experiments, design.paired() ? pairs : runs, alpha,
                injectedNanos(), reference, source);
    }

    /**
     * The experiment file {@code file} of {@code flag}.
     *
     * @throws ParameterException naming the flag and the file, and what keeps it from being read
     */
    private ExperimentJson experimentFile(String flag, Path file) {
        try {
            return ExperimentFiles.read(InputFiles.text(file));
        } catch (InputFiles.BadInputException e) {
            throw usage(flag + " " + file + ": " + e.getMessage());
        }
    }

    /**
     * The sequential judgement {@code --target} and {@code --budget} ask for, of the blocks {@code effects} has; the
     * default experiment's target when neither {@code --pairs} nor {@code --target} is given; none with
     * {@code --pairs} and no target. Only a paired design's experiments can stop after a pair (checkAgainstDesign
     * refuses them otherwise). A target must be measured by every trial judged: those of the stored run, or those
     * this host runs (a count it does not give is refused before any trial).
     *
     * @param stored the trials of {@code --from}; empty for a run on this host
     * @param run the plan of a run on this host, whose trial JVMs' flags may turn a count off; empty for {@code --from}
     */
    private Optional<SequentialCalibration> sequential(EffectCalibration effects, Optional<List<TrialResult>> stored,
                                                       Optional<ExperimentPlan> run) {
        // the default experiment, as ab runs it, when neither --pairs nor --target is given
        List<String> wanted = effects.design().paired() ? PairedInput.targetsOrDefault(targets,
                spec.commandLine().getParseResult().hasMatchedOption("--pairs"), false) : targets;
        if (wanted.isEmpty()) {
            if (budget != null) {
                throw usage("--budget goes with --target: it is the time each sequential experiment may take");
            }
            return Optional.empty();
        }
        List<SequentialStopping.Target> parsed;
        try {
            parsed = PairedInput.targets(wanted, MetricKeys.ENGINE_ALL);
        } catch (IllegalArgumentException e) {
            throw usage("--target: " + e.getMessage());
        }
        for (SequentialStopping.Target target : parsed) {
            String metric = target.metric();
            if (stored.isEmpty()) {
                HostCount.of(metric).flatMap(HostCount::notCountedHere).ifPresent(why -> {
                    throw usage("--target: " + metric + " is not counted on this host: " + why);
                });
                run.flatMap(plan -> PairedInput.uncounted(metric, plan)).ifPresent(why -> {
                    throw usage("--target: " + metric + " would not be measured: " + why);
                });
                continue;
            }
            List<TrialResult> lacking = stored.get().stream().filter(r -> r.ok() && !r.metrics().containsKey(metric))
                    .toList();
            if (!lacking.isEmpty()) {
                String why = HostCount.of(metric).map(count -> lacking.get(0).environment().get(count.notCountedKey()))
                        .orElse(null);
                throw usage("--target: " + metric + " is missing from " + lacking.size() + " of the stored run's "
                        + "successful trials" + (why == null ? "" : " (" + why + ")") + ", so its looks cannot be "
                        + "judged");
            }
        }
        Optional<Duration> limit;
        try {
            limit = Optional.ofNullable(budget).map(PairedInput::budget);
        } catch (IllegalArgumentException e) {
            throw usage("--budget " + e.getMessage());
        }
        return Optional.of(new SequentialCalibration(effects, parsed, limit));
    }

    /** The {@code --inject} cost in ns, 0 without one. */
    private long injectedNanos() {
        return CalibrateFlags.injectedNanos(spec.commandLine(), inject);
    }

    /** The plan the flags describe; every mistake is a {@link ParameterException} naming its flag. */
    ExperimentPlan plan() {
        ExperimentDesign chosen;
        try {
            chosen = design == null ? PairedInput.defaultDesign(spec.commandLine().getParseResult()
                    .hasMatchedOption("--runs")) : ExperimentDesign.parse(design);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        int perExperiment = chosen.paired() ? pairs : runs;
        CalibrateFlags.checkSize(spec.commandLine(), experiments, chosen.paired(), perExperiment);
        CalibrateFlags.checkValues(spec.commandLine(), mdeRuns);
        CalibrateFlags.checkAgainstDesign(spec.commandLine(), chosen, design == null ? CalibrateFlags.Source.DEFAULT
                : CalibrateFlags.Source.DESIGN_FLAG, inject != null);
        EngineOptionArguments.requireAgreeingTls(spec.commandLine(), "--set", options);
        Workload workload = workloadOptions.workload(chosen.paired() ? Workload.PAIRED_DEFAULTS : Workload.DEFAULTS);
        EngineOptionArguments.requireEngineStack(spec.commandLine(), "--set", options, workload.stack());
        EngineOptions engine = EngineOptionArguments.parse(spec.commandLine(), "--set", options);
        if (workload.serverWorkNanos() > 0 && inject != null) {
            throw usage("--inject sets the with side's serverWorkNanos; --server-work-nanos would set both sides'");
        }
        EngineVariant variant = new EngineVariant(engine, workload, List.of(), Optional.empty());
        EngineVariant withVariant = new EngineVariant(engine, workload.withServerWorkNanos(workload.serverWorkNanos()
                + injectedNanos()), List.of(), Optional.empty());
        try {
            ExperimentPlan plan = processOptions.applyTo(ExperimentPlan.of(variant, withVariant,
                    experiments * perExperiment).withOrder(TrialOrder.INTERLEAVED));
            return chosen.paired() ? plan.withDesign(chosen, windowsPerPair) : plan;
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw usage(e.getMessage());
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
