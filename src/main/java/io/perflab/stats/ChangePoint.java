package io.perflab.stats;

/**
 * A detected change in a series: the first index of the new segment.
 *
 * @param index position (0-based) of the first point after the change
 * @param pValue permutation p-value of the split when it was accepted
 * @param statistic the E-divisive statistic Q̂ of the split
 * @param meanBefore mean of the segment ending at the change
 * @param meanAfter mean of the segment starting at it
 */
public record ChangePoint(int index, double pValue, double statistic, double meanBefore, double meanAfter) {
}
