package io.perflab.stats;

import java.util.Optional;

/**
 * Variance components of the per-window log ratios y<sub>ij</sub> = log(with<sub>ij</sub>/without<sub>ij</sub>) of a
 * paired design (pair i = 1..a, window j = 1..n<sub>i</sub>, N = Σn<sub>i</sub>), by the one-way random-effects
 * analysis of variance y<sub>ij</sub> = μ + b<sub>i</sub> + e<sub>ij</sub>, Var b = σ²<sub>between</sub>,
 * Var e = σ²<sub>within</sub>:
 *
 * <ul>
 *   <li>MS<sub>between</sub> = Σ n<sub>i</sub>(ȳ<sub>i</sub> − ȳ)² / (a − 1), with ȳ the mean of all N windows;
 *   <li>MS<sub>within</sub> = Σ Σ (y<sub>ij</sub> − ȳ<sub>i</sub>)² / (N − a);
 *   <li>method-of-moments (ANOVA) estimators σ̂²<sub>within</sub> = MS<sub>within</sub> and
 *       σ̂²<sub>between</sub> = (MS<sub>between</sub> − MS<sub>within</sub>) / n₀, with
 *       n₀ = (N − Σn²<sub>i</sub>/N)/(a − 1) (= M windows per pair when balanced).
 * </ul>
 *
 * <p>When MS<sub>between</sub> &lt; MS<sub>within</sub> the estimate of σ²<sub>between</sub> is negative: it is
 * reported as 0 and {@link #betweenClamped()} says so (the pairs then differ no more than the windows of a pair
 * do). Both components are in squared natural-log units; √σ² is about the relative standard deviation.
 *
 * <p>The same classification serves any grouping of log ratios: pairs and their windows, or the experiments of a
 * calibration run and their pairs, where {@link #fPValue()} says whether the experiments measured one effect.
 *
 * @param between σ̂²<sub>between</sub>, clamped at 0: how much the true log ratio varies from pair to pair (JVM
 *     starts, placement, machine state)
 * @param within σ̂²<sub>within</sub>: how much windows vary within one pair
 * @param meanSquareBetween MS<sub>between</sub>
 * @param meanSquareWithin MS<sub>within</sub>
 * @param dfBetween a − 1
 * @param dfWithin N − a
 * @param n0 the effective windows per pair n₀
 * @param betweenClamped whether the unclamped estimate of σ²<sub>between</sub> was negative
 * @see <a href="https://doi.org/10.1002/9780470316856">S. R. Searle, G. Casella, C. E. McCulloch (1992), Variance
 *     Components, Wiley, §3.5 (ANOVA estimation, unbalanced one-way classification)</a>
 */
public record VarianceComponents(double between, double within, double meanSquareBetween, double meanSquareWithin,
        int dfBetween, int dfWithin, double n0, boolean betweenClamped) {

    /** The most windows per pair {@link #nextRun} is asked to consider by the pages and the command line. */
    public static final int DEFAULT_MAX_WINDOWS = 100;

    /**
     * The components of a one-way classification.
     *
     * @param y the groups' values (pairs' windows, or experiments' pairs), each group not empty
     * @throws IllegalArgumentException with fewer than 2 groups, an empty group, or no group of 2 values
     */
    public static VarianceComponents of(double[][] y) {
        int a = y.length;
        if (a < 2) {
            throw new IllegalArgumentException("variance components need at least 2 groups, got " + a);
        }
        int total = 0;
        double sumSquares = 0;
        for (double[] pair : y) {
            if (pair.length == 0) {
                throw new IllegalArgumentException("variance components need values in every group");
            }
            total += pair.length;
            sumSquares += (double) pair.length * pair.length;
        }
        if (total == a) {
            throw new IllegalArgumentException("variance components need a group of at least 2 values");
        }
        double[] all = new double[total];
        int k = 0;
        for (double[] pair : y) {
            System.arraycopy(pair, 0, all, k, pair.length);
            k += pair.length;
        }
        double grand = Sums.mean(all);
        double[] between = new double[a];
        double[] within = new double[a];
        for (int i = 0; i < a; i++) {
            double m = Sums.mean(y[i]);
            between[i] = y[i].length * (m - grand) * (m - grand);
            within[i] = Sums.sumOfSquaredDeviations(y[i], m);
        }
        int dfBetween = a - 1;
        int dfWithin = total - a;
        double msb = Sums.sum(between) / dfBetween;
        double msw = Sums.sum(within) / dfWithin;
        double n0 = (total - sumSquares / total) / dfBetween;
        double raw = (msb - msw) / n0;
        return new VarianceComponents(Math.max(0, raw), msw, msb, msw, dfBetween, dfWithin, n0, raw < 0);
    }

    /**
     * MS<sub>between</sub>/MS<sub>within</sub>: the F statistic of σ²<sub>between</sub> = 0 (R:
     * {@code anova(lm(y ~ g))}); NaN when no value differs from any other.
     */
    public double f() {
        return meanSquareBetween / meanSquareWithin;
    }

    /**
     * P(F<sub>a−1, N−a</sub> &gt; {@link #f()}): small when the groups differ more than their members do, that is,
     * when the groups did not all measure the same thing (R: {@code anova(lm(y ~ g))$"Pr(>F)"[1]}, or
     * {@code oneway.test(y ~ g, var.equal = TRUE)}).
     */
    public double fPValue() {
        return Distributions.fUpper(f(), dfBetween, dfWithin);
    }

    /**
     * Kalibera and Jones's optimal number of windows per pair for the measured costs: a pair costs c₁ seconds
     * (JVM start and warmup) plus c₂ seconds per window, and the mean log ratio of a pairs of m windows has
     * variance (σ²<sub>between</sub> + σ²<sub>within</sub>/m)/a. For a fixed time a·(c₁ + m·c₂) that variance is
     * least at
     *
     * <p style="text-align:center">m* = √(c₁·σ²<sub>within</sub> / (c₂·σ²<sub>between</sub>)),
     *
     * <p>+∞ when σ²<sub>between</sub> = 0. It counts seconds as if pairs were many; for a run of a given length,
     * {@link #nextRun} also counts the t quantile of its few pairs and whole pairs only.
     *
     * @param pairSeconds c₁, seconds per pair spent before the first window (JVM start, warmup), &gt; 0
     * @param windowSeconds c₂, seconds per window, &gt; 0
     * @see <a href="https://doi.org/10.1145/2464157.2464160">T. Kalibera, R. Jones (2013), Rigorous benchmarking
     *     in reasonable time, ISMM 2013, pp. 63–74 (optimal repetition counts per level)</a>
     */
    public double kaliberaJonesOptimum(double pairSeconds, double windowSeconds) {
        requirePositive(pairSeconds, "seconds per pair");
        requirePositive(windowSeconds, "seconds per window");
        return between == 0 ? Double.POSITIVE_INFINITY : Math.sqrt(pairSeconds * within / (windowSeconds * between));
    }

    /**
     * The windows per pair that give a run of {@code budgetSeconds} its smallest detectable change, if the variance
     * components stay as measured: over m = 1 … {@code maxWindows}, with K = ⌊budget/(c₁ + m·c₂)⌋ pairs, the m of
     * least {@link #mdePercent(long, int, double, double) MDE} (of two alike, the one with more pairs).
     *
     * <p>Unlike {@link #kaliberaJonesOptimum}, which minimises the variance per second and so assumes many pairs, this
     * counts what few pairs cost: the t quantiles of K − 1 degrees of freedom, and whole pairs only. When the pairs
     * differ no more than their windows do (σ²<sub>between</sub> = 0), Kalibera and Jones's m* is infinite, yet a
     * run of six minutes is best spent on a few windows per pair, since each window more takes a pair away and
     * widens the t quantile; that is what this answers.
     *
     * @param budgetSeconds the run's length, seconds spent on pairs
     * @param pairSeconds c₁, seconds per pair before its first window
     * @param windowSeconds c₂, seconds per window of each variant
     * @param maxWindows the most windows per pair to consider, ≥ 1
     * @param alpha the test's two-sided level, in (0, 1)
     * @param power the power asked for, in (0, 1)
     * @return empty when not even 2 pairs of one window fit the budget
     */
    public Optional<NextRun> nextRun(double budgetSeconds, double pairSeconds, double windowSeconds,
            int maxWindows, double alpha, double power) {
        requirePositive(budgetSeconds, "time budget");
        requirePositive(pairSeconds, "seconds per pair");
        requirePositive(windowSeconds, "seconds per window");
        if (maxWindows < 1) {
            throw new IllegalArgumentException("the most windows per pair must be at least 1, got " + maxWindows);
        }
        requireLevels(alpha, power);
        NextRun best = null;
        for (int m = 1; m <= maxWindows; m++) {
            long pairs = pairsWithin(budgetSeconds, pairSeconds + m * windowSeconds);
            if (pairs < 2) {
                break;
            }
            double mde = mdePercent(pairs, m, alpha, power);
            if (best == null || mde < best.mdePercent()) {
                best = new NextRun(budgetSeconds, m, pairs, mde);
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * The relative change a paired design of {@code pairs} pairs of {@code windowsPerPair} windows detects with
     * {@code power} at two-sided level {@code alpha}, if the components stay as measured:
     * 100·(e<sup>MDE</sup> − 1) % with MDE = (t<sub>1−α/2,K−1</sub> + t<sub>power,K−1</sub>)·√(σ²<sub>between</sub>/K
     * + σ²<sub>within</sub>/(K·m)), the figure {@link Power#paired} gives for pairs whose means spread by the
     * square root.
     *
     * @throws IllegalArgumentException with fewer than 2 pairs or 1 window, or {@code alpha} or {@code power} outside
     *     (0, 1)
     */
    public double mdePercent(long pairs, int windowsPerPair, double alpha, double power) {
        if (pairs < 2 || windowsPerPair < 1) {
            throw new IllegalArgumentException("a paired design needs at least 2 pairs of 1 window, got " + pairs
                    + " of " + windowsPerPair);
        }
        requireLevels(alpha, power);
        double df = pairs - 1.0;
        double factor = Distributions.tQuantile(1 - alpha / 2, df) + Distributions.tQuantile(power, df);
        return 100 * Math.expm1(factor * Math.sqrt(between / pairs + within / ((double) pairs * windowsPerPair)));
    }

    /**
     * These components times one factor f, chosen so that the mean of a pair of {@code windowsPerPair} windows has
     * the variance {@code pairMeanVariance}: f = v/(σ²<sub>between</sub> + σ²<sub>within</sub>/m). They are the
     * components of the log ratios scaled by √f — the same ratio σ²<sub>within</sub>/σ²<sub>between</sub>, so the
     * same {@link #kaliberaJonesOptimum} and the same ranking of designs in {@link #nextRun}, with the level of the
     * spread measured. The mean squares scale alike; degrees of freedom, n₀ and {@link #betweenClamped} stay.
     *
     * @return these components when they give a pair's mean no variance, or {@code pairMeanVariance} is not a
     *     positive number
     */
    public VarianceComponents scaledTo(double pairMeanVariance, int windowsPerPair) {
        if (windowsPerPair < 1) {
            throw new IllegalArgumentException("a pair has at least 1 window, got " + windowsPerPair);
        }
        double modelled = between + within / windowsPerPair;
        double factor = pairMeanVariance / modelled;
        if (!(modelled > 0) || !(factor > 0) || Double.isInfinite(factor)) {
            return this;
        }
        return new VarianceComponents(factor * between, factor * within, factor * meanSquareBetween,
                factor * meanSquareWithin, dfBetween, dfWithin, n0, betweenClamped);
    }

    /** ⌊budget/cost⌋, a run planned as K·cost counted as K pairs despite rounding in the division. */
    private static long pairsWithin(double budgetSeconds, double pairCost) {
        return (long) Math.floor(budgetSeconds / pairCost * (1 + 1e-12));
    }

    private static void requireLevels(double alpha, double power) {
        if (!(alpha > 0 && alpha < 1) || !(power > 0 && power < 1)) {
            throw new IllegalArgumentException("alpha and power must lie in (0, 1), got " + alpha + " and " + power);
        }
    }

    private static void requirePositive(double v, String what) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be a positive number of seconds, got " + v);
        }
    }
}
