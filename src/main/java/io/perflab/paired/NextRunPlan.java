package io.perflab.paired;

import io.perflab.runner.experiment.PairCosts;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.NextRun;
import io.perflab.stats.PairedAnalysis;
import io.perflab.stats.VarianceComponents;
import java.util.Optional;

/**
 * The windows per pair to use next time, for the command line and the experiment page alike: the design that, in a
 * run as long as this one (its pairs at the measured cost of a pair, c₁, and of a window, c₂), detects the smallest
 * change if the variance components stay as measured ({@link VarianceComponents#nextRun}); beside it the same
 * model's figure for this run's own design, and Kalibera and Jones's m*, which minimises the variance per second
 * and is infinite when the pairs differ no more than their windows do.
 *
 * <p>The model is scaled to this run's test ({@link VarianceComponents#scaledTo}): both components by one factor,
 * so that for this run's pairs and windows per pair it gives the variance of the mean pair log ratio the test
 * measured, s²/K ({@link PairedAnalysis#pairLogRatioSd}), and so the MDE of the sensitivity
 * ({@link PairedAnalysis#power}). The advice then compares like with like: a design is shown as better only if it
 * beats what this run's test detects. Unscaled, the two differ where the components cannot reproduce s² — when
 * the between-pairs estimate was negative and clamped to 0 the model keeps MS<sub>within</sub>/m for a pair's
 * variance where the pairs' means spread by MS<sub>between</sub>/m, which is less, so this run's own design read
 * wider than its test (±89.53 % against ±74.39 % for the involuntary context switches of
 * {@code docs/perf/duet-aa-probe.json}) and a design worse than this run's test (±82.68 %) read as better — and,
 * slightly, with pairs of unequal windows. Scaling keeps the ratio of the components, so the ranking of the
 * designs and m* are the model's; with every pair complete and σ²<sub>between</sub> not clamped the factor is 1
 * (σ²<sub>between</sub> + σ²<sub>within</sub>/m = MS<sub>between</sub>/m = s²).
 *
 * @param next the design of least detectable change in this run's length
 * @param thisDesignMdePercent the same model's detectable change for this run's pairs and windows per pair: the MDE
 *     of this run's test
 * @param kaliberaJonesOptimum m* = √(c₁·σ²<sub>within</sub>/(c₂·σ²<sub>between</sub>)), +∞ when
 *     σ²<sub>between</sub> = 0
 * @param betweenClamped whether the between-pairs estimate was negative and taken as 0: the advice then rests on
 *     pairs that differ no more than their windows do
 */
public record NextRunPlan(NextRun next, double thisDesignMdePercent, double kaliberaJonesOptimum,
                          boolean betweenClamped) {

    /**
     * The plan for a run as long as {@code analysis}'s pairs of {@code windowsPerPair} windows at {@code costs}.
     *
     * @return empty with fewer than 2 pairs (no interval to improve on) or without variance components (a single
     *     window per pair)
     */
    public static Optional<NextRunPlan> of(PairedAnalysis analysis, PairCosts costs, int windowsPerPair,
                                           ComparisonOptions options) {
        int pairs = analysis.pairs();
        if (pairs < 2 || windowsPerPair < 1) {
            return Optional.empty();
        }
        double c1 = costs.pairSeconds();
        double c2 = costs.windowSeconds();
        double sd = analysis.pairLogRatioSd();
        return analysis.varianceComponents().flatMap(measured -> {
            VarianceComponents components = measured.scaledTo(sd * sd, windowsPerPair);
            return components.nextRun(pairs * (c1 + windowsPerPair * c2), c1, c2,
                            VarianceComponents.DEFAULT_MAX_WINDOWS, options.alpha(), options.power())
                    .map(next -> new NextRunPlan(next,
                            components.mdePercent(pairs, windowsPerPair, options.alpha(), options.power()),
                            components.kaliberaJonesOptimum(c1, c2), measured.betweenClamped()));
        });
    }
}
