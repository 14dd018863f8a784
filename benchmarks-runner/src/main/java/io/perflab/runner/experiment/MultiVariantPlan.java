package io.perflab.runner.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An experiment of more than two engine variants, such as the same workload on several RPC stacks: each variant
 * runs {@code runsPerVariant} trials, each in a fresh JVM, interleaved round by round (A B C A B C …) so that slow
 * drift of the machine hits every variant alike. {@link ExperimentRunner#run(MultiVariantPlan,
 * java.util.function.Consumer)} runs it; each trial's result carries its variant's name.
 *
 * @param variants name → variant, in the order each round runs them
 * @param runsPerVariant trials of each variant, 2 to {@link ExperimentPlan#MAX_RUNS_PER_VARIANT}
 * @param trialTimeout a trial still running after this long is killed and recorded {@code TIMED_OUT}
 * @param cooldown pause between two trials
 * @param maxFailures the experiment stops once more trials than this have failed or timed out
 * @param jvmArgs flags every trial JVM gets, before its variant's own
 */
public record MultiVariantPlan(Map<String, EngineVariant> variants, int runsPerVariant, Duration trialTimeout,
                               Duration cooldown, int maxFailures, List<String> jvmArgs)
        implements TrialProcessSettings<MultiVariantPlan> {

    public MultiVariantPlan {
        if (variants.size() < 2) {
            throw new IllegalArgumentException("a comparison needs at least two variants, got " + variants.size());
        }
        variants = Collections.unmodifiableMap(new LinkedHashMap<>(variants));
        if (runsPerVariant < 2) {
            throw new IllegalArgumentException("--runs must be ≥ 2 (a variance needs two trials), got "
                    + runsPerVariant);
        }
        if (runsPerVariant > ExperimentPlan.MAX_RUNS_PER_VARIANT) {
            throw new IllegalArgumentException("--runs must be at most " + ExperimentPlan.MAX_RUNS_PER_VARIANT
                    + ", got " + runsPerVariant);
        }
        TrialProcessSettings.check(trialTimeout, cooldown, maxFailures);
        jvmArgs = List.copyOf(jvmArgs);
    }

    /** The flags every trial JVM starts with: {@link #jvmArgs()}, then what any variant's engine options need. */
    public List<String> trialJvmArgs() {
        return EngineVariant.trialJvmArgs(jvmArgs, variants.values());
    }

    /** A plan with a timeout fitted to the variants, no cooldown, the default failure limit and JVM flags. */
    public static MultiVariantPlan of(Map<String, EngineVariant> variants, int runsPerVariant) {
        Duration timeout = Duration.ZERO;
        for (EngineVariant variant : variants.values()) {
            Duration budget = variant.workload().warmup().duration().plus(variant.workload().run()).plusSeconds(60);
            timeout = budget.compareTo(timeout) > 0 ? budget : timeout;
        }
        return new MultiVariantPlan(variants, runsPerVariant, timeout, Duration.ZERO,
                ExperimentPlan.DEFAULT_MAX_FAILURES, ExperimentPlan.DEFAULT_JVM_ARGS);
    }

    @Override
    public MultiVariantPlan withTrialTimeout(Duration value) {
        return new MultiVariantPlan(variants, runsPerVariant, value, cooldown, maxFailures, jvmArgs);
    }

    @Override
    public MultiVariantPlan withCooldown(Duration value) {
        return new MultiVariantPlan(variants, runsPerVariant, trialTimeout, value, maxFailures, jvmArgs);
    }

    @Override
    public MultiVariantPlan withMaxFailures(int value) {
        return new MultiVariantPlan(variants, runsPerVariant, trialTimeout, cooldown, value, jvmArgs);
    }

    @Override
    public MultiVariantPlan withJvmArgs(List<String> value) {
        return new MultiVariantPlan(variants, runsPerVariant, trialTimeout, cooldown, maxFailures, value);
    }

    /**
     * One position of the plan.
     *
     * @param ordinal position in the plan, from 0
     * @param variant the name of the variant it runs
     */
    public record Trial(int ordinal, String variant) {
    }

    /** Every trial of the plan, by ordinal: round after round, each round every variant in order. */
    public List<Trial> trials() {
        List<Trial> trials = new ArrayList<>(runsPerVariant * variants.size());
        for (int round = 0; round < runsPerVariant; round++) {
            for (String name : variants.keySet()) {
                trials.add(new Trial(trials.size(), name));
            }
        }
        return trials;
    }

    /** The plan as JSON-ready entries: the {@code experiment} object of an experiment file. */
    public Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        Map<String, Object> described = new LinkedHashMap<>();
        variants.forEach((name, variant) -> described.put(name, variant.describe()));
        d.put("variants", described);
        d.put("runsPerVariant", runsPerVariant);
        d.put("order", TrialOrder.INTERLEAVED.label());
        d.put("trialTimeoutSeconds", trialTimeout.toMillis() / 1000.0);
        d.put("cooldownSeconds", cooldown.toMillis() / 1000.0);
        d.put("maxFailures", maxFailures);
        d.put("jvmArgs", jvmArgs);
        return d;
    }
}
