package io.perflab.runner.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An A/B experiment: two variants of the same kind, how many trials of each, in which order or design, and the
 * limits the runner enforces. Immutable; start from {@link #of} and change with the {@code with…} methods.
 *
 * @param without the baseline
 * @param with the change
 * @param runsPerVariant trials of each variant, ≥ 2; in a paired design the number of pairs (one trial JVM, or
 *     {@code windowsPerPair} command runs, of each variant per pair)
 * @param order the order of the trials of the fresh design
 * @param seed the seed of {@link TrialOrder#RANDOMIZED}
 * @param trialTimeout a trial still running after this long is killed and recorded {@code TIMED_OUT}
 * @param cooldown pause between two trials
 * @param maxFailures the experiment stops once more trials than this have failed or timed out
 * @param jvmArgs flags every trial JVM gets, before its variant's own
 * @param design fresh trials or pairs ({@link ExperimentDesign})
 * @param windowsPerPair in a paired design, the windows each variant measures per pair, ≥ 1; 1 in the fresh design
 */
public record ExperimentPlan(Variant without, Variant with, int runsPerVariant, TrialOrder order, long seed,
                             Duration trialTimeout, Duration cooldown, int maxFailures, List<String> jvmArgs,
                             ExperimentDesign design, int windowsPerPair)
        implements TrialProcessSettings<ExperimentPlan> {

    /**
     * The trial JVMs' fixed flags: a fixed, pre-touched heap so that heap growth and first-touch page faults
     * do not land in the measured window; the serial collector, whose single thread adds no background CPU
     * to the per-request figures of a workload that allocates little; and {@code -Xbatch}, which makes a thread
     * wait for the compilation it triggered. Without it, on a machine with fewer cores than busy threads the
     * compiler threads starve and keep compiling well into the measured window, where their CPU time counts as
     * user CPU of the trial (seen on 2 cores: 4.4 s of compilation in a 3 s window after a 12 s warmup; 0.2 s
     * with {@code -Xbatch}). It changes how fast the warmup reaches compiled code, not the compiled code.
     */
    public static final List<String> DEFAULT_JVM_ARGS = List.of("-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch",
            "-XX:+UseSerialGC", "-Xbatch", "-XX:-UseDynamicNumberOfCompilerThreads");

    /** The most windows per pair a plan may ask for. */
    public static final int MAX_WINDOWS_PER_PAIR = io.perflab.runner.trial.PairPosition.MAX_WINDOWS;

    /**
     * The most trials of each variant (pairs, in a paired design) a plan may hold: weeks of trials even at a
     * second each, and every ordinal, twice it and its windows' within an {@code int}.
     */
    public static final int MAX_RUNS_PER_VARIANT = 1_000_000;

    /** Trials allowed to fail before the experiment stops, unless told otherwise. */
    public static final int DEFAULT_MAX_FAILURES = 3;

    public ExperimentPlan {
        Objects.requireNonNull(without, "without");
        Objects.requireNonNull(with, "with");
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(design, "design");
        if (without.getClass() != with.getClass()) {
            throw new IllegalArgumentException("both variants must be engine configurations or both commands");
        }
        if (runsPerVariant < 2) {
            throw new IllegalArgumentException(design.paired()
                    ? "--pairs must be ≥ 2 (a variance needs two pairs), got " + runsPerVariant
                    : "--runs must be ≥ 2 (a variance needs two trials), got " + runsPerVariant);
        }
        if (runsPerVariant > MAX_RUNS_PER_VARIANT) {
            throw new IllegalArgumentException((design.paired() ? "--pairs" : "--runs") + " must be at most "
                    + MAX_RUNS_PER_VARIANT + ", got " + runsPerVariant);
        }
        if (design == ExperimentDesign.DUET && without instanceof CommandVariant) {
            throw new IllegalArgumentException("--design duet runs two trial JVMs at once; a command experiment "
                    + "takes --design fresh or alternating");
        }
        if (design.paired() ? windowsPerPair < 1 || windowsPerPair > MAX_WINDOWS_PER_PAIR : windowsPerPair != 1) {
            throw new IllegalArgumentException(design.paired()
                    ? "--windows-per-pair must be between 1 and " + MAX_WINDOWS_PER_PAIR + ", got " + windowsPerPair
                    : "--windows-per-pair applies to the paired designs (duet, alternating) only");
        }
        TrialProcessSettings.check(trialTimeout, cooldown, maxFailures);
        jvmArgs = List.copyOf(jvmArgs);
    }

    /**
     * The flags every trial JVM of this plan starts with: {@link #jvmArgs()}, then what either variant's engine
     * options need from the JVM ({@link EngineVariant#trialJvmArgs}).
     */
    public List<String> trialJvmArgs() {
        return EngineVariant.trialJvmArgs(jvmArgs, List.of(without, with));
    }

    /** A plan with interleaved order, seed 1, a timeout fitted to the variants, no cooldown, the default flags. */
    public static ExperimentPlan of(Variant without, Variant with, int runsPerVariant) {
        return new ExperimentPlan(without, with, runsPerVariant, TrialOrder.INTERLEAVED, 1,
                defaultTimeout(without, with), Duration.ZERO, DEFAULT_MAX_FAILURES, DEFAULT_JVM_ARGS,
                ExperimentDesign.FRESH, 1);
    }

    /**
     * Warmup (or its cap) plus the measured window plus a minute for JVM start, engine setup and shutdown;
     * ten minutes for commands.
     */
    public static Duration defaultTimeout(Variant without, Variant with) {
        return longest(trialBudget(without), trialBudget(with));
    }

    private static Duration trialBudget(Variant variant) {
        if (variant instanceof EngineVariant engine) {
            return engine.workload().warmup().duration().plus(engine.workload().run()).plusSeconds(60);
        }
        return Duration.ofMinutes(10);
    }

    private static Duration longest(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    public ExperimentPlan withOrder(TrialOrder value) {
        return new ExperimentPlan(without, with, runsPerVariant, value, seed, trialTimeout, cooldown, maxFailures,
                jvmArgs, design, windowsPerPair);
    }

    public ExperimentPlan withSeed(long value) {
        return new ExperimentPlan(without, with, runsPerVariant, order, value, trialTimeout, cooldown, maxFailures,
                jvmArgs, design, windowsPerPair);
    }

    @Override
    public ExperimentPlan withTrialTimeout(Duration value) {
        return new ExperimentPlan(without, with, runsPerVariant, order, seed, value, cooldown, maxFailures,
                jvmArgs, design, windowsPerPair);
    }

    @Override
    public ExperimentPlan withCooldown(Duration value) {
        return new ExperimentPlan(without, with, runsPerVariant, order, seed, trialTimeout, value, maxFailures,
                jvmArgs, design, windowsPerPair);
    }

    @Override
    public ExperimentPlan withMaxFailures(int value) {
        return new ExperimentPlan(without, with, runsPerVariant, order, seed, trialTimeout, cooldown, value,
                jvmArgs, design, windowsPerPair);
    }

    @Override
    public ExperimentPlan withJvmArgs(List<String> value) {
        return new ExperimentPlan(without, with, runsPerVariant, order, seed, trialTimeout, cooldown, maxFailures,
                value, design, windowsPerPair);
    }

    /**
     * This plan with {@code value} as its design: for a paired design, {@link #runsPerVariant()} pairs of
     * {@code windows} windows each.
     */
    public ExperimentPlan withDesign(ExperimentDesign value, int windows) {
        return new ExperimentPlan(without, with, runsPerVariant, order, seed, trialTimeout, cooldown, maxFailures,
                jvmArgs, value, windows);
    }

    /** The pairs of a paired design: {@link #runsPerVariant()}. */
    public int pairs() {
        return runsPerVariant;
    }

    /** The variant called {@code name}. */
    public Variant variant(VariantName name) {
        return name == VariantName.WITH ? with : without;
    }

    /** Every trial of the plan, by ordinal. */
    public List<PlannedTrial> trials() {
        List<VariantName> sequence = order.sequence(runsPerVariant, seed);
        List<PlannedTrial> trials = new ArrayList<>(sequence.size());
        for (int i = 0; i < sequence.size(); i++) {
            trials.add(new PlannedTrial(i, sequence.get(i)));
        }
        return trials;
    }

    /** The plan as JSON-ready entries: the {@code experiment} object of an experiment file. */
    public Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("without", without.describe());
        d.put("with", with.describe());
        if (design.paired()) {
            d.put("design", design.label());
            d.put("pairs", runsPerVariant);
            d.put("windowsPerPair", windowsPerPair);
        } else {
            d.put("runsPerVariant", runsPerVariant);
            d.put("order", order.label());
        }
        d.put("seed", seed);
        d.put("trialTimeoutSeconds", trialTimeout.toMillis() / 1000.0);
        d.put("cooldownSeconds", cooldown.toMillis() / 1000.0);
        d.put("maxFailures", maxFailures);
        d.put("jvmArgs", jvmArgs);
        return d;
    }
}
