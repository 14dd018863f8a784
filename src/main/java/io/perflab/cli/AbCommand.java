package io.perflab.cli;

import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.paired.SequentialStopping;
import io.perflab.paired.PairedInput;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentOutcome;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.runner.experiment.Variant;
import io.perflab.runner.rpcbench.HostCount;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.ComparisonOptions;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code perflab ab}: a local A/B experiment, by default in pairs of trial JVMs (the alternating design) compared
 * pair by pair ({@link PairedSummary}) and stopped as soon as the answer is known ({@link SequentialStopping}), each
 * look printed as it is made; or, with {@code --runs}, each trial in a fresh JVM (or a shell command per trial), with
 * the statistics table (Welch, Holm, verdicts) at the end. Either shows progress and may write an experiment file.
 *
 * <p>Over 300 lines: the flags of the fresh, the paired and the command experiment, each refused where the
 * experiment would not use it.
 */
@Command(name = "ab",
        description = "Run an A/B experiment, by default in alternating pairs of trial JVMs (loaded one at a time, "
                + "windows A B B A …), at most " + PairedInput.DEFAULT_PAIRS + " pairs, stopping once user, system "
                + "and all CPU and context switches per request are each settled or a change of 2 %% of it unlikely ("
                + PairedInput.DEFAULT_TARGETS_FORMATTED + "), analysed pair by pair; or --runs N: N "
                + "trials per variant, each in a fresh JVM with identical heap/GC flags, then the Welch comparison of "
                + "every metric. Shell commands instead with --with-cmd/--without-cmd.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.DONE, ExitCodes.TOO_MANY_FAILURES, ExitCodes.USAGE, ExitCodes.INTERNAL,
                ExitCodes.OUT_NOT_WRITTEN, ExitCodes.INTERRUPTED})
final class AbCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--runs", paramLabel = "N",
            description = "Trials per variant, 2 to " + ExperimentPlan.MAX_RUNS_PER_VARIANT + " (the fresh design).")
    private Integer runs;

    @Option(names = "--design", paramLabel = "fresh|duet|alternating",
            description = "alternating (the default, or fresh when --runs is given): pairs of JVMs loaded one at a "
                    + "time, windows A B B A …; fresh: a fresh JVM per trial; duet: pairs of JVMs, one per variant, "
                    + "at once, each pinned to its half of the CPUs, synchronized windows (command experiments: "
                    + "fresh or alternating). Paired designs default to 3 s windows after an auto:15 warmup.")
    private String design;

    @Option(names = "--pairs", paramLabel = "K",
            description = "Pairs of a paired design, 2 to " + ExperimentPlan.MAX_RUNS_PER_VARIANT
                    + ": the most it runs (default: " + PairedInput.DEFAULT_PAIRS + ", stopping at the default targets "
                    + "when no --target is given either; command experiments: "
                    + PairedInput.DEFAULT_COMMAND_PAIRS + "). Given without --target, all K pairs run.")
    private Integer pairs;

    @Option(names = "--windows-per-pair", paramLabel = "M",
            description = "Windows of each variant per pair of a paired design (default: 3).")
    private Integer windowsPerPair;

    @Option(names = "--target", paramLabel = "METRIC:PCT%|METRIC:settled|METRIC:mde=PCT%",
            description = "Paired designs: stop once the change of METRIC is known to ± PCT percent, or is settled "
                    + "(significant at α = 0.05 despite looking after every pair: group-sequential, O'Brien–Fleming "
                    + "spending over --pairs), or with mde=PCT%% settled or futile (a change of ± PCT percent unlikely "
                    + "to be found by the last pair: non-binding β-spending, β = 0.1, from 10 pairs on); repeatable, "
                    + "stops when every target is met. Without --pairs or "
                    + "--target an engine experiment has the targets " + PairedInput.DEFAULT_TARGETS_FORMATTED + ".")
    private List<String> targets = new ArrayList<>();

    @Option(names = "--budget", paramLabel = "DURATION",
            description = "Paired designs: start no pair that would end after this long, e.g. 10m, 90s, 1h30m; the "
                    + "last look then spends the rest of α.")
    private String budget;

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
            description = "Trial order of the fresh design (default: interleaved).")
    private String order = TrialOrder.INTERLEAVED.label();

    @Option(names = "--seed", paramLabel = "N",
            description = "Seed of the fresh design's randomized order (default: 1).")
    private long seed = 1;

    @Option(names = "--jvm-args-with", paramLabel = "\"flags\"", converter = TrialProcessOptions.JvmFlags.class,
            description = "Extra JVM flags of the change.")
    private String jvmArgsWith = "";

    @Option(names = "--jvm-args-without", paramLabel = "\"flags\"", converter = TrialProcessOptions.JvmFlags.class,
            description = "Extra JVM flags of the baseline.")
    private String jvmArgsWithout = "";

    @Mixin
    private CommandOptions commandOptions = new CommandOptions();

    @Mixin
    private TrialProcessOptions processOptions;

    AbCommand() {
        this(new TrialProcessOptions());
    }

    /** The command with {@code processOptions} as its trial process flags, as a test gives them. */
    AbCommand(TrialProcessOptions processOptions) {
        this.processOptions = processOptions;
    }

    @Override
    public Integer call() {
        ExperimentPlan plan = plan();
        PrintWriter stdout = spec.commandLine().getOut();
        PlanExecution execution = new PlanExecution("ab", stdout, spec.commandLine().getErr(),
                processOptions.out(spec));
        if (plan.design().paired()) {
            Map<String, String> lastLooks = new LinkedHashMap<>();
            PairStoppingRule rule = stoppingRule(plan, stdout, lastLooks);
            TrialLauncher launcher = launcher(plan);
            // after every flag has been checked (--cpus by the launcher): a refused command runs no experiment
            defaultExperimentLine(plan).ifPresent(line -> {
                stdout.println(line);
                stdout.flush();
            });
            return execution.runPairs(plan, launcher, rule, done -> {
                stdout.print(PairedSummary.format(done.results(), ComparisonOptions.defaults()));
                if (!lastLooks.isEmpty()) {
                    // as the service judges a target: by the rule's last look, its boundary and repeated interval
                    stdout.println("\nThe targets judged by the stopping rule's last look (the tests above ignore the "
                            + "looks):");
                    lastLooks.values().forEach(line -> stdout.println("  " + line));
                }
                if (done.outcome().stop() == ExperimentOutcome.Stop.COMPLETED && !done.outcome().message().isEmpty()) {
                    long ran = done.results().stream().map(TrialResult::pair).filter(Objects::nonNull)
                            .map(PairPosition::index).distinct().count();
                    stdout.println("\nStopped by the stopping rule after " + ran + " of " + plan.pairs() + " pairs"
                            + ": " + done.outcome().message());
                }
            }).exitStatus();
        }
        return execution.run(plan, launcher(plan), done -> stdout.print(AbSummary.format(done.results()))).exitStatus();
    }

    /**
     * How the plan's trials start: engine trials' JVMs fast, from the jar extracted and archived once for their
     * flags; commands as they are, since a command experiment starts no trial JVM to prepare that for.
     */
    TrialLauncher launcher(ExperimentPlan plan) {
        return plan.without() instanceof CommandVariant ? processOptions.launcher(spec)
                : processOptions.launcher(spec, plan.jvmArgs());
    }

    /**
     * The rule that stops a paired experiment early: the targets and the budget, each look printed as it is made;
     * none when neither is given.
     */
    private PairStoppingRule stoppingRule(ExperimentPlan plan, PrintWriter stdout,
                                          Map<String, String> lastLooks) {
        List<SequentialStopping.Target> parsed;
        List<String> known = plan.without() instanceof CommandVariant ? MetricKeys.COMMAND
                : MetricKeys.ENGINE_ALL;
        try {
            // a command whose output is read may report any metric
            parsed = PairedInput.targets(effectiveTargets(plan), commandOptions.readsOutput() ? List.of() : known);
        } catch (IllegalArgumentException e) {
            throw usage("--target: " + e.getMessage());
        }
        if (!(plan.without() instanceof CommandVariant)) {
            // the trials run here: a count this host does not give, or that their flags turn off, would stop the run
            // at its first pair
            for (SequentialStopping.Target target : parsed) {
                HostCount.of(target.metric()).flatMap(HostCount::notCountedHere).ifPresent(why -> {
                    throw usage("--target: " + target.metric() + " is not counted on this host, so its target could "
                            + "never be settled: " + why);
                });
                PairedInput.uncounted(target.metric(), plan).ifPresent(why -> {
                    throw usage("--target: " + target.metric() + " would not be measured, so its target could never "
                            + "be settled: " + why);
                });
            }
        }
        Optional<Duration> limit = Optional.ofNullable(budget).map(this::duration);
        if (parsed.isEmpty() && limit.isEmpty()) {
            return PairStoppingRule.NEVER;
        }
        return new SequentialStopping(parsed, plan.pairs(), 0.05, limit, System::nanoTime, looks -> {
            looks.forEach(look -> {
                String line = look.describe();  // once: an ending look's adjusted estimate is computed for it
                stdout.println("  " + line);
                lastLooks.put(look.target().metric(), line);
            });
            stdout.flush();
        });
    }

    /** What says that the default experiment runs, when it does: neither {@code --pairs} nor {@code --target} given. */
    Optional<String> defaultExperimentLine(ExperimentPlan plan) {
        if (!plan.design().paired() || !targets.isEmpty() || effectiveTargets(plan).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("The default experiment: at most " + plan.pairs() + " pairs, stopping once every target "
                + "is met: " + String.join(", ", effectiveTargets(plan)) + " (--pairs K runs K pairs, all of them; "
                + "--target sets others).");
    }

    /** The targets given, or the default experiment's when neither {@code --pairs} nor {@code --target} is. */
    List<String> effectiveTargets(ExperimentPlan plan) {
        return PairedInput.targetsOrDefault(targets, pairs != null, plan.without() instanceof CommandVariant);
    }

    /** {@code 10m}, {@code 90s}, {@code 1h30m} or a number of seconds. */
    private Duration duration(String text) {
        try {
            return PairedInput.budget(text);
        } catch (IllegalArgumentException e) {
            throw usage("--budget " + e.getMessage());
        }
    }

    /** The plan the flags describe; every mistake is a {@link ParameterException} naming its flag. */
    ExperimentPlan plan() {
        ExperimentDesign chosen;
        try {
            chosen = design == null ? PairedInput.defaultDesign(runs != null) : ExperimentDesign.parse(design);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        Variant without;
        Variant with;
        if (commandOptions.given()) {
            if (!withOptions.isEmpty() || !withoutOptions.isEmpty()) {
                throw usage("--with/--without set engine options; a command experiment (--with-cmd/--without-cmd) "
                        + "takes none");
            }
            List<String> engineOnly = engineTrialFlagsGiven();
            if (!engineOnly.isEmpty()) {
                throw usage(String.join(", ", engineOnly) + " set the workload or the JVM of engine trials; a "
                        + "command experiment (--with-cmd/--without-cmd) runs its commands as they are: leave them "
                        + "out");
            }
            List<CommandVariant> variants = commandOptions.variants();
            without = variants.get(0);
            with = variants.get(1);
        } else {
            Workload workload = workloadOptions.workload(chosen.paired() ? Workload.PAIRED_DEFAULTS
                    : Workload.DEFAULTS);
            EngineOptionArguments.VariantArguments baseline = EngineOptionArguments.parseVariant(spec.commandLine(),
                    "--without", withoutOptions, workload);
            EngineOptionArguments.VariantArguments change = EngineOptionArguments.parseVariant(spec.commandLine(),
                    "--with", withOptions, workload);
            without = new EngineVariant(baseline.engineOptions(), baseline.workload(),
                    TrialProcessOptions.flags(jvmArgsWithout), Optional.empty());
            with = new EngineVariant(change.engineOptions(), change.workload(), TrialProcessOptions.flags(jvmArgsWith),
                    Optional.empty());
        }
        if (chosen.paired()) {
            if (runs != null) {
                throw usage("--runs sets the trials of the fresh design; --design " + chosen.label()
                        + " takes --pairs");
            }
            if (pairCount() < 2) {
                throw usage("--pairs must be ≥ 2 (a variance needs two pairs), got " + pairs);
            }
            if (pairCount() > ExperimentPlan.MAX_RUNS_PER_VARIANT) {
                // the plan is made fresh first, whose bound named --runs
                throw usage("--pairs must be at most " + ExperimentPlan.MAX_RUNS_PER_VARIANT + ", got "
                        + pairs);
            }
            refuseOrderOfFreshTrials(chosen);
        } else {
            if (pairs != null || windowsPerPair != null || !targets.isEmpty() || budget != null) {
                throw usage("--pairs, --windows-per-pair, --target and --budget apply to --design duet or "
                        + "alternating");
            }
            if (runs == null) {
                throw usage("Missing required option: '--runs=N' (--design fresh runs N trials of each variant)");
            }
        }
        try {
            ExperimentPlan plan = processOptions.applyTo(ExperimentPlan.of(without, with,
                    chosen.paired() ? pairCount() : runs).withOrder(TrialOrder.parse(order)).withSeed(seed));
            return chosen.paired() ? plan.withDesign(chosen, windowsPerPair == null ? DEFAULT_WINDOWS : windowsPerPair)
                    : plan;
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /**
     * Refuses {@code --order} other than interleaved and {@code --seed} with a paired design, which runs its pairs in
     * turn whatever they say; the API refuses the same order.
     */
    private void refuseOrderOfFreshTrials(ExperimentDesign paired) {
        String pairsRunInTurn = "the pairs of the " + paired.label() + " design run in turn, their CPU halves and "
                + "start order swapped from pair to pair";
        TrialOrder trialOrder;
        try {
            trialOrder = TrialOrder.parse(order);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        if (trialOrder != TrialOrder.INTERLEAVED) {
            throw usage("--order applies to the fresh design; " + pairsRunInTurn);
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--seed")) {
            throw usage("--seed draws the randomized order of the fresh design; " + pairsRunInTurn);
        }
    }

    /**
     * The flags on the command line that only engine trials use, in the order of the help: the workload's and the
     * trial JVMs'. Their defaults do not count; only what was typed.
     */
    private List<String> engineTrialFlagsGiven() {
        List<String> names = new ArrayList<>();
        spec.mixins().get("workloadOptions").options().forEach(option -> names.add(option.longestName()));
        names.addAll(List.of("--jvm-args-with", "--jvm-args-without", "--jvm-args"));
        ParseResult parsed = spec.commandLine().getParseResult();
        return names.stream().filter(parsed::hasMatchedOption).toList();
    }

    private int pairCount() {
        return pairs == null ? PairedInput.defaultPairs(commandOptions.given()) : pairs;
    }

    /** Windows of each variant per pair unless {@code --windows-per-pair} says otherwise. */
    static final int DEFAULT_WINDOWS = PairedInput.DEFAULT_WINDOWS_PER_PAIR;

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
