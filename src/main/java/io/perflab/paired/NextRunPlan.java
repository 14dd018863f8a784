package io.perflab.paired;

import io.perflab.runner.experiment.PairCosts;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.NextRun;
import io.perflab.stats.VarianceComponents;
import java.util.Optional;

/**
 * The windows per pair to use next time, for the command line and the experiment page alike: the design that, in a
 * run as long as this one (its pairs at the measured cost of a pair, c₁, and of a window, c₂), detects the smallest
 * change if the variance components stay as measured ({@link VarianceComponents#nextRun}); beside it the same
 * model's figure for this run's own design, and Kalibera and Jones's m*, which minimises the variance per second
 * and is infinite when the pairs differ no more than their windows do.
 *
 * @param next the design of least detectable change in this run's length
 * @param thisDesignMdePercent the same model's detectable change for this run's pairs and windows per pair
 * @param kaliberaJonesOptimum m* = √(c₁·σ²<sub>within</sub>/(c₂·σ²<sub>between</sub>)), +∞ when
 *     σ²<sub>between</sub> = 0
 */
public record NextRunPlan(NextRun next, double thisDesignMdePercent, double kaliberaJonesOptimum) {

    /**
     * The plan for a run as long as one of {@code pairs} pairs of {@code windowsPerPair} windows at {@code costs}.
     *
     * @return empty with fewer than 2 pairs (no interval to improve on)
     */
    public static Optional<NextRunPlan> of(VarianceComponents components, PairCosts costs, int pairs,
                                           int windowsPerPair, ComparisonOptions options) {
        if (pairs < 2 || windowsPerPair < 1) {
            return Optional.empty();
        }
        double c1 = costs.pairSeconds();
        double c2 = costs.windowSeconds();
        return components.nextRun(pairs * (c1 + windowsPerPair * c2), c1, c2, VarianceComponents.DEFAULT_MAX_WINDOWS,
                        options.alpha(), options.power())
                .map(next -> new NextRunPlan(next,
                        components.mdePercent(pairs, windowsPerPair, options.alpha(), options.power()),
                        components.kaliberaJonesOptimum(c1, c2)));
    }
}
