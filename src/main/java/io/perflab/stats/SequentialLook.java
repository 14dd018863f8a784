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
 * @param tBoundary the boundary for |t| at this look: the t quantile at the z boundary's nominal level
 * @param estimate the mean of the pair values (for log ratios: the mean log ratio)
 * @param ciLow lower end of the repeated confidence interval of the mean, estimate − tBoundary·SE
 * @param ciHigh upper end, estimate + tBoundary·SE
 * @param relativeChange the estimate and the repeated interval as percent changes, 100·(e<sup>x</sup> − 1), for
 *     pair values that are log ratios
 * @param halfWidthPercent the relative precision of the repeated interval, 100·(e<sup>tBoundary·SE</sup> − 1)
 * @param outcome what to do now, and why
 */
public record SequentialLook(int look, int pairs, double informationFraction, List<SequentialBoundary> boundaries,
        double t, double df, double tBoundary, double estimate, double ciLow, double ciHigh,
        RelativeChange relativeChange, double halfWidthPercent, Outcome outcome) {

    public SequentialLook {
        boundaries = List.copyOf(boundaries);
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
        LAST_LOOK
    }
}
