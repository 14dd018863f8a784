package io.perflab.stats;

import java.util.Arrays;
import java.util.OptionalDouble;

/**
 * Descriptive statistics of one group of observations.
 *
 * <ul>
 *   <li>mean x̄ = Σxᵢ/n, computed with compensated summation and refined by the mean residual (as R's {@code mean});
 *   <li>variance s² = Σ(xᵢ − x̄)²/(n − 1), two-pass and compensated, so {@code 1e9 + noise} keeps its digits;
 *   <li>quantiles by R's default (type 7): Q(p) = (1 − h)·x₍ⱼ₎ + h·x₍ⱼ₊₁₎ with j = ⌊(n − 1)p⌋ + 1,
 *       h = (n − 1)p − ⌊(n − 1)p⌋;
 *   <li>coefficient of variation s/|x̄| (absent when x̄ = 0).
 * </ul>
 *
 * @see <a href="https://doi.org/10.2307/2684934">R. J. Hyndman, Y. Fan (1996), Sample quantiles in statistical
 *     packages, The American Statistician 50(4)</a>
 */
public final class Summary {

    private final int n;
    private final double mean;
    private final double variance;
    private final double min;
    private final double q1;
    private final double median;
    private final double q3;
    private final double max;
    private final double[] sorted;

    private Summary(double[] values) {
        this.n = values.length;
        this.sorted = values.clone();
        Arrays.sort(sorted);
        this.mean = Sums.mean(values);
        this.variance = n > 1 ? Sums.sumOfSquaredDeviations(values, mean) / (n - 1) : 0.0;
        this.min = sorted[0];
        this.max = sorted[n - 1];
        this.q1 = quantile(sorted, 0.25);
        this.median = quantile(sorted, 0.5);
        this.q3 = quantile(sorted, 0.75);
    }

    /**
     * Summarises a group of at least one finite value.
     *
     * @param group the group's name for error messages, e.g. {@code with}
     * @throws IllegalArgumentException for an empty sample or a NaN or infinite value
     */
    public static Summary of(double[] values, String group) {
        Inputs.requireSample(values, group, 1);
        return new Summary(values);
    }

    /** Sample quantile of type 7 (R's default) from ascending values; {@code p} in [0, 1]. */
    static double quantile(double[] ascending, double p) {
        int n = ascending.length;
        double index = (n - 1) * p;
        int lo = (int) Math.floor(index);
        int hi = (int) Math.ceil(index);
        double q = ascending[lo];
        double h = index - lo;
        if (h > 0 && ascending[hi] != q) {
            q = (1 - h) * q + h * ascending[hi];
        }
        return q;
    }

    public int n() {
        return n;
    }

    public double mean() {
        return mean;
    }

    /** Sample variance with denominator n − 1 (0 for a single value). */
    public double variance() {
        return variance;
    }

    /** Sample standard deviation √s². */
    public double sd() {
        return Math.sqrt(variance);
    }

    public double min() {
        return min;
    }

    /** First quartile, type 7. */
    public double q1() {
        return q1;
    }

    public double median() {
        return median;
    }

    /** Third quartile, type 7. */
    public double q3() {
        return q3;
    }

    public double max() {
        return max;
    }

    /** s/|x̄| as a fraction (multiply by 100 for percent); empty when the mean is 0. */
    public OptionalDouble coefficientOfVariation() {
        return mean == 0 ? OptionalDouble.empty() : OptionalDouble.of(sd() / Math.abs(mean));
    }

    /**
     * Half-width of the t confidence interval of the mean, t<sub>(1+level)/2, n−1</sub>·s/√n; 0 for a single value.
     */
    public double meanHalfWidth(double confidenceLevel) {
        Inputs.requireConfidenceLevel(confidenceLevel);
        if (n < 2) {
            return 0;
        }
        return Distributions.tQuantile(1 - (1 - confidenceLevel) / 2, n - 1) * sd() / Math.sqrt(n);
    }

    /** Whether every observation is the same value. */
    public boolean isConstant() {
        return min == max;
    }

    /** The values in ascending order (a shared array: callers in this package must not modify it). */
    double[] sortedValues() {
        return sorted;
    }

    @Override
    public String toString() {
        return "Summary[n=" + n + ", mean=" + mean + ", sd=" + sd() + ", median=" + median + ", min=" + min
                + ", max=" + max + "]";
    }
}
