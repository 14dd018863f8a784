package io.perflab.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the figures of a paired experiment's JVMs moved across their windows: per pair and variant, the change of the
 * figure from its first window to its last, fitted by least squares to the log of every window against the
 * window's index, so that a JVM still warming up (its code still being compiled, its figures still falling)
 * shows as a trend. The analysis matches window j of one variant with window j of the other, so a trend both
 * variants share cancels in their ratio; a trend that differs between them does not: the change then lies partly
 * in how fast each variant reaches its steady state, and the measured effect depends on where in its warmup each
 * window fell. The test here is of that difference: the one-sample t-test over the pairs of (with − without)
 * fitted log changes.
 *
 * @param pairs pairs with at least two windows measured on both sides
 * @param withPercent the mean over the pairs of {@code with}'s fitted change from its first window to its last, %
 * @param withoutPercent the same for {@code without}, %
 * @param difference the one-sample t-test of the pairs' (with − without) fitted log changes against 0
 * @param relativeDifference 100·(e<sup>x</sup> − 1) of that mean difference and of its interval
 * @see <a href="https://doi.org/10.1145/3133876">E. Barrett, C. F. Bolz-Tereick, R. Killick, S. Mount, L. Tratt
 *     (2017), Virtual machine warmup blows hot and cold, OOPSLA 2017</a>
 */
public record WindowDrift(int pairs, double withPercent, double withoutPercent, TTestResult difference,
        RelativeChange relativeDifference) {

    /**
     * The drift of {@code pairs}, its interval at the options' confidence level and its test two-sided, or empty
     * when fewer than two pairs have two windows measured on both sides with positive figures, or when the pairs'
     * differences are essentially constant (as when nothing moved at all).
     */
    public static Optional<WindowDrift> of(List<PairWindows> pairs, ComparisonOptions options) {
        List<double[]> fitted = new ArrayList<>();
        for (PairWindows p : pairs) {
            double[] w = p.withShared();
            double[] wo = p.withoutShared();
            List<Integer> matched = new ArrayList<>();
            for (int j = 0; j < p.length(); j++) {
                if (p.matched(j) && w[j] > 0 && wo[j] > 0) {
                    matched.add(j);
                }
            }
            if (matched.size() >= 2) {
                fitted.add(new double[] {fittedChange(w, matched), fittedChange(wo, matched)});
            }
        }
        if (fitted.size() < 2) {
            return Optional.empty();
        }
        double[] difference = fitted.stream().mapToDouble(f -> f[0] - f[1]).toArray();
        TTestResult test;
        try {
            // two-sided whatever the comparison's alternative: a difference in warming either way is the caveat
            test = TTest.oneSample(difference, "pairs' differences in drift", Alternative.TWO_SIDED,
                    options.confidenceLevel());
        } catch (IllegalArgumentException constant) {
            return Optional.empty();
        }
        double with = fitted.stream().mapToDouble(f -> f[0]).average().orElseThrow();
        double without = fitted.stream().mapToDouble(f -> f[1]).average().orElseThrow();
        return Optional.of(new WindowDrift(fitted.size(), Math.expm1(with) * 100, Math.expm1(without) * 100, test,
                RelativeChange.ofLogRatio(test)));
    }

    /** The least-squares slope of log(values[j]) on j over {@code windows}, times their span: first to last. */
    private static double fittedChange(double[] values, List<Integer> windows) {
        double meanX = 0;
        double meanY = 0;
        for (int j : windows) {
            meanX += j;
            meanY += Math.log(values[j]);
        }
        meanX /= windows.size();
        meanY /= windows.size();
        double sxy = 0;
        double sxx = 0;
        for (int j : windows) {
            sxy += (j - meanX) * (Math.log(values[j]) - meanY);
            sxx += (j - meanX) * (j - meanX);
        }
        return sxy / sxx * (windows.get(windows.size() - 1) - windows.get(0));
    }
}
