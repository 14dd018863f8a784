package io.perflab.stats;

import java.util.List;

/**
 * One look of a sequential paired experiment ({@link SequentialPlan#look}): the boundaries so far, the test at
 * this look, the repeated confidence interval, and whether to stop.
 *
 * @param look 1, 2, …
 * @param pairs the pairs done at this look
 * @param informationFraction pairs / the most pairs planned
 * @param boundaries the z boundaries of every look so far, this one last
 * @param t the one-sample t statistic of the pair values
 * @param df pairs − 1
 * @param stdErr the standard error of the mean of the pair values
 * @param tBoundary the boundary for |t| at this look: the t quantile at the z boundary's nominal level
 * @param tFutility the futility bound for |t| at this look: the target is futile below it ({@link Outcome#FUTILE}),
 *     the t quantile at the normal futility bound's two-sided level (see {@link SequentialPlan}); NaN where the look
 *     had none: a plan without a smallest change, fewer than {@link SequentialPlan#MIN_FUTILE_PAIRS} pairs, the last
 *     look, or a look that crossed its efficacy boundary
 * @param estimate the mean of the pair values (for log ratios: the mean log ratio)
 * @param ciLow lower end of the repeated confidence interval of the mean, estimate − tBoundary·SE
 * @param ciHigh upper end, estimate + tBoundary·SE
 * @param relativeChange the estimate and the repeated interval as percent changes, 100·(e<sup>x</sup> − 1), for
 *     pair values that are log ratios
 * @param halfWidthPercent the relative precision of the repeated interval, 100·(e<sup>tBoundary·SE</sup> − 1)
 * @param outcome what to do now, and why
 */
public record SequentialLook(int look, int pairs, double informationFraction, List<SequentialBoundary> boundaries,
        double t, double df, double stdErr, double tBoundary, double tFutility, double estimate, double ciLow,
        double ciHigh, RelativeChange relativeChange, double halfWidthPercent, Outcome outcome) {

    public SequentialLook {
        boundaries = List.copyOf(boundaries);
    }

    /**
     * The estimate adjusted for stopping at this look, with its interval at {@code confidence}, by the stage-wise
     * ordering ({@link GroupSequential#stagewiseEstimate}) of the boundaries of this and the earlier looks: the
     * median-unbiased estimate, which an early stop on a large estimate does not pull outward as it does
     * {@link #relativeChange()}. The rule compares t with the t quantile at each z boundary's nominal level, so the
     * ordering is made on the normal scores of the looks' t statistics (the z at the same tail probability), where
     * the rule is exactly |z| ≥ c<sub>k</sub>. The median found there lies some way below z, and the estimate is
     * moved by as many standard errors from the mean: t − (z − median) on the t scale. (Taken back through the t
     * distribution's tail instead, a shift of a fraction of a standard error became tens of them at a stop with 2–5
     * degrees of freedom: +10 % stopped at 4 pairs read +7.4 % [+6.4, +8.4].) The interval's ends are as far from it
     * as on the normal scale, widened by the ratio of the t quantile with {@link #df} degrees of freedom to the normal
     * one, so that at a single look the estimate is the mean and the interval the t interval. Meant for the look that
     * ended the experiment (or decided its metric); NaN when the statistic is not finite or beyond the normal scale's
     * reach (its tail probability, or an end's, below the smallest double, or an end the stage-wise search cannot
     * bracket).
     */
    public RelativeChange stagewise(double confidence) {
        double upper = Double.isFinite(t) ? Distributions.tUpper(Math.abs(t), df) : 0;
        if (!(upper > 0) || !(stdErr > 0)) {
            return new RelativeChange(Double.NaN, Double.NaN, Double.NaN);
        }
        double z = Math.copySign(-Distributions.normalQuantile(upper), t);
        double[] information = boundaries.stream().mapToDouble(SequentialBoundary::informationFraction).toArray();
        double[] bounds = boundaries.stream().mapToDouble(SequentialBoundary::z).toArray();
        double[] eta;
        try {
            eta = GroupSequential.stagewiseEstimate(information, bounds, z, confidence);
        } catch (IllegalStateException beyondReach) {
            return new RelativeChange(Double.NaN, Double.NaN, Double.NaN);
        }
        double tail = (1 - confidence) / 2;
        double widen = Distributions.tUpperQuantile(tail, df) / Distributions.normalQuantile(1 - tail);
        double center = t - (z - eta[1]);
        double low = center - (eta[1] - eta[0]) * widen;
        double high = center + (eta[2] - eta[1]) * widen;
        if (!Double.isFinite(low) || !Double.isFinite(high)) {
            return new RelativeChange(Double.NaN, Double.NaN, Double.NaN);
        }
        return new RelativeChange(100 * Math.expm1(center * stdErr), 100 * Math.expm1(low * stdErr),
                100 * Math.expm1(high * stdErr));
    }

    /** Whether the experiment stops at this look. */
    public boolean stop() {
        return outcome != Outcome.CONTINUE;
    }

    /** What a look decides. */
    public enum Outcome {
        /** Keep going: no boundary crossed, not yet precise enough, pairs and budget left. */
        CONTINUE,
        /** |t| reached the boundary: the change is significant at the plan's α despite the repeated looks. */
        SIGNIFICANT,
        /** The repeated confidence interval is as narrow as the plan's target. */
        PRECISE_ENOUGH,
        /** The most pairs are done or the budget is spent, without crossing the boundary. */
        LAST_LOOK,
        /**
         * A change of the plan's smallest size is unlikely to be found by the last look: |t| is below the futility
         * bound ({@link #tFutility}, {@link SequentialPlan#smallestChangePercent}). Not significant.
         */
        FUTILE;

        /** Whether this outcome settles its target: significant, precise enough, or futile. */
        public boolean settles() {
            return this == SIGNIFICANT || this == PRECISE_ENOUGH || this == FUTILE;
        }
    }
}
