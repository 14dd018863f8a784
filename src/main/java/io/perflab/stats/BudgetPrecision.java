package io.perflab.stats;

/**
 * What a time budget buys in a paired design ({@link VarianceComponents#precision}).
 *
 * @param budgetSeconds the budget
 * @param windowsPerPair m
 * @param pairs the pairs that fit, ⌊budget/(c₁ + m·c₂)⌋
 * @param halfWidthLogRatio half-width of the interval of the mean log ratio (+∞ with fewer than 2 pairs)
 * @param halfWidthPercent the same as a relative precision, 100·(e<sup>h</sup> − 1) %
 */
public record BudgetPrecision(double budgetSeconds, int windowsPerPair, long pairs, double halfWidthLogRatio,
        double halfWidthPercent) {
}
