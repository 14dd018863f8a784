package io.perflab.stats;

import java.util.SplittableRandom;

/**
 * A paired design's change judged so that a few windows far from the rest (a window whose host slowed, as the guests
 * PerfLab runs on do now and then) weigh no more than windows a little off: Huber's score of the windows' log
 * ratios, tested by flipping the signs of whole pairs. It is given beside the paired t-test of the pairs' means
 * ({@link PairedAnalysis}), which gives the verdict.
 *
 * <p>For a shift δ of the log ratio, with y<sub>ij</sub> the log ratio of window j of pair i (i = 1..K):
 * z<sub>ij</sub> = y<sub>ij</sub> − δ; the scale s(δ) = 1.4826 · median |z<sub>ij</sub>| (the normalised median
 * absolute deviation about δ); each pair's score c<sub>i</sub>(δ) = Σ<sub>j</sub> ψ(z<sub>ij</sub>/s(δ)) with
 * Huber's ψ(u) = max(−k, min(k, u)), k = {@value #K} (95 % efficiency at normal data); and the statistic
 * S(δ) = Σ<sub>i</sub> c<sub>i</sub>(δ).
 *
 * <ul>
 *   <li><b>Test.</b> If δ is the true shift and a pair's windows are as likely to come out −z as z (the two JVMs of a
 *       pair are alike but for the change, and the design alternates which starts first and where), every sign
 *       pattern ε ∈ {±1}<sup>K</sup> of the pairs is as likely as the one observed. The scale depends on the |z|
 *       only, so flipping a pair flips its score: S<sub>ε</sub> = Σ ε<sub>i</sub>c<sub>i</sub>. The p-value is the
 *       share of the 2<sup>K</sup> patterns with |S<sub>ε</sub>| ≥ |S| (S<sub>ε</sub> ≥ S for {@code greater},
 *       ≤ for {@code less}), counted exactly for K ≤ {@value #EXACT_MAX_PAIRS}, else (1 + the count among
 *       {@value #RANDOM_PATTERNS} random patterns, the same at every δ) / ({@value #RANDOM_PATTERNS} + 1), whose
 *       standard error is at most 0.003 near p = 0.05. It holds its level whatever the windows' distribution, given
 *       that symmetry; with K pairs the least two-sided p-value is 2/2<sup>K</sup>, so at α = 0.05 it needs K ≥ 6.
 *       (The normal law of Σε<sub>i</sub>c<sub>i</sub>, mean 0 and variance Σc<sub>i</sub>², is no substitute: at
 *       17 pairs of unequal scores its p-values below 0.2 were up to 0.035 off the count of all patterns.)
 *   <li><b>Estimate.</b> The δ̂ at which S(δ̂) = 0, the shift the test finds most plausible (as Hodges and Lehmann's
 *       estimate goes with the signed-rank test): a Huber M-estimate of the windows' log ratio.
 *   <li><b>Interval.</b> The δ the test does not reject at level α, found by bisection from δ̂ outwards: the test
 *       inverted, as for the signed-rank interval. Unbounded on a side where even δ beyond every window is not
 *       rejected (too few pairs).
 * </ul>
 *
 * <p>On the stored A/A and known-effect campaigns of docs/PERFORMANCE.md (8 pairs of 3 windows), whose windows had
 * heavy tails, its estimate of CPU per call spread 3–33 % less from experiment to experiment than the mean of the
 * pairs' log ratios; in a fresh campaign with lighter tails, no less (docs/PERFORMANCE.md, "A robust check beside the
 * paired t-test").
 *
 * @param logRatio δ̂
 * @param ciLow the interval's lower bound (−∞ when unbounded)
 * @param ciHigh the interval's upper bound (+∞ when unbounded)
 * @param pValue of δ = 0
 * @param pairs K
 * @param exact whether every sign pattern was counted (K ≤ {@value #EXACT_MAX_PAIRS}), else random ones
 * @param alternative the alternative of the test and the sides of the interval
 * @param confidenceLevel of the interval
 * @see <a href="https://doi.org/10.1214/aoms/1177703732">P. J. Huber (1964), Robust estimation of a location
 *     parameter, Ann. Math. Statist. 35(1)</a>
 * @see <a href="https://doi.org/10.1214/aoms/1177704172">J. L. Hodges, E. L. Lehmann (1963), Estimates of
 *     location based on rank tests, Ann. Math. Statist. 34(2)</a>
 */
public record RobustPairedChange(double logRatio, double ciLow, double ciHigh, double pValue, int pairs,
        boolean exact, Alternative alternative, double confidenceLevel) {

    /** Huber's tuning constant. */
    public static final double K = 1.345;
    /** The normalised MAD's factor: 1/Φ⁻¹(3/4). */
    static final double MAD_FACTOR = 1.482602218505602;
    /** The most pairs whose 2<sup>K</sup> sign patterns are all counted. */
    public static final int EXACT_MAX_PAIRS = 16;
    /** The random sign patterns counted beyond that, besides the observed one. */
    public static final int RANDOM_PATTERNS = 4_999;
    /** The seed of those patterns. */
    private static final long SEED = 0x5eedF11bL;
    /** Halvings of a bracket at most. */
    private static final int BISECTIONS = 60;
    /** A bracket this narrow (in log ratio) is done: a millionth of a percent, far below any figure printed. */
    private static final double PRECISION = 1e-8;

    /**
     * 100·(e<sup>x</sup> − 1) of the estimate and of the interval; an unbounded end stays infinite (not −100 %), so
     * that {@link RelativeChange#bounded()} says so.
     */
    public RelativeChange relativeChange() {
        return new RelativeChange(100 * Math.expm1(logRatio),
                Double.isFinite(ciLow) ? 100 * Math.expm1(ciLow) : Double.NEGATIVE_INFINITY,
                100 * Math.expm1(ciHigh));
    }

    /** Whether the interval is bounded on both sides the alternative asks for. */
    public boolean bounded() {
        return (alternative == Alternative.LESS || Double.isFinite(ciLow))
                && (alternative == Alternative.GREATER || Double.isFinite(ciHigh));
    }

    /**
     * The change of {@code logRatios}, pair by pair.
     *
     * @param logRatios per pair, its windows' log ratios; at least 2 pairs, each with at least one finite value
     * @throws IllegalArgumentException naming the first pair that breaks those rules
     */
    public static RobustPairedChange of(double[][] logRatios, Alternative alternative, double confidenceLevel) {
        if (logRatios == null || logRatios.length < 2) {
            throw new IllegalArgumentException("not enough pairs: " + (logRatios == null ? 0 : logRatios.length)
                    + " (need ≥ 2)");
        }
        if (!(confidenceLevel > 0 && confidenceLevel < 1)) {
            throw new IllegalArgumentException("the confidence level must lie between 0 and 1, got " + confidenceLevel);
        }
        int n = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < logRatios.length; i++) {
            if (logRatios[i] == null || logRatios[i].length == 0) {
                throw new IllegalArgumentException("pair " + i + " has no window");
            }
            for (double y : logRatios[i]) {
                if (!Double.isFinite(y)) {
                    throw new IllegalArgumentException("pair " + i + " has a log ratio that is not finite: " + y);
                }
                min = Math.min(min, y);
                max = Math.max(max, y);
                n++;
            }
        }
        Scores scores = new Scores(logRatios, n);
        double estimate = scores.root(min, max);
        double alpha = 1 - confidenceLevel;
        // beyond every window by the windows' range: every score has one sign there, the pattern the test rejects first
        double reach = (max - min) + Math.max(1e-9, Math.abs(estimate) * 1e-6);
        double low = Double.NEGATIVE_INFINITY;
        double high = Double.POSITIVE_INFINITY;
        Alternative sided = alternative == Alternative.TWO_SIDED ? Alternative.TWO_SIDED : null;
        if (alternative != Alternative.LESS) {
            // the lower bound: δ below δ̂ rejected in favour of a larger shift
            low = scores.bound(estimate, min - reach, sided == null ? Alternative.GREATER : sided, alpha);
        }
        if (alternative != Alternative.GREATER) {
            high = scores.bound(estimate, max + reach, sided == null ? Alternative.LESS : sided, alpha);
        }
        double p = scores.pValue(0, alternative);
        return new RobustPairedChange(estimate, low, high, p, logRatios.length,
                logRatios.length <= EXACT_MAX_PAIRS, alternative, confidenceLevel);
    }

    /** The pairs' scores at a shift δ and the sign-flip distribution of their sum. */
    private static final class Scores {

        private final double[][] y;
        private final double[] deviations;
        private final double[] c;
        /** Beyond {@link #EXACT_MAX_PAIRS}: the random patterns, pair i's sign in bit i % 64 of word i / 64. */
        private final long[][] patterns;

        Scores(double[][] y, int windows) {
            this.y = y;
            this.deviations = new double[windows];
            this.c = new double[y.length];
            this.patterns = y.length <= EXACT_MAX_PAIRS ? null : randomPatterns(y.length);
        }

        /**
         * The same patterns at every δ, and for every experiment of as many pairs: a stored one judged again agrees.
         */
        private static long[][] randomPatterns(int pairs) {
            SplittableRandom random = new SplittableRandom(SEED);
            long[][] patterns = new long[RANDOM_PATTERNS][(pairs + 63) / 64];
            for (long[] pattern : patterns) {
                for (int w = 0; w < pattern.length; w++) {
                    pattern[w] = random.nextLong();
                }
            }
            return patterns;
        }

        /** Fills {@link #c} with the pairs' scores at δ; returns their sum S(δ). */
        double scores(double delta) {
            int k = 0;
            for (double[] pair : y) {
                for (double v : pair) {
                    deviations[k++] = Math.abs(v - delta);
                }
            }
            double scale = MAD_FACTOR * QuickSelect.median(deviations);
            double sum = 0;
            for (int i = 0; i < y.length; i++) {
                double ci = 0;
                for (double v : y[i]) {
                    double z = v - delta;
                    // a zero scale (over half the windows at δ exactly) leaves the signs: ψ's limit
                    ci += scale > 0 ? Math.max(-K, Math.min(K, z / scale)) : K * Math.signum(z);
                }
                c[i] = ci;
                sum += ci;
            }
            return sum;
        }

        /** δ̂, where S changes sign between {@code min} and {@code max}: S is positive below every window. */
        double root(double min, double max) {
            double lo = min;
            double hi = max;
            for (int i = 0; i < BISECTIONS && hi - lo > PRECISION; i++) {
                double mid = lo + (hi - lo) / 2;
                if (mid == lo || mid == hi) {
                    break;
                }
                if (scores(mid) > 0) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return lo + (hi - lo) / 2;
        }

        /**
         * The edge between the δ not rejected near {@code estimate} and those rejected towards {@code far}; infinite
         * (on far's side) when even {@code far} is not rejected.
         */
        double bound(double estimate, double far, Alternative alternative, double alpha) {
            if (pValue(far, alternative) > alpha) {
                return far < estimate ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            }
            double in = estimate;
            double out = far;
            for (int i = 0; i < BISECTIONS && Math.abs(out - in) > PRECISION; i++) {
                double mid = in + (out - in) / 2;
                if (mid == in || mid == out) {
                    break;
                }
                if (pValue(mid, alternative) > alpha) {
                    in = mid;
                } else {
                    out = mid;
                }
            }
            return in + (out - in) / 2;
        }

        /** The sign-flip p-value of the shift δ. */
        double pValue(double delta, Alternative alternative) {
            double observed = scores(delta);
            double spread = 0;
            for (double v : c) {
                spread += Math.abs(v);
            }
            // sums of the same terms in another order may differ in their last bits: those are ties
            double tolerance = 1e-9 * spread;
            int pairs = c.length;
            if (pairs <= EXACT_MAX_PAIRS) {
                long patterns = 1L << pairs;
                long extreme = 0;
                double sum = observed;
                long signs = 0;
                for (long g = 0; g < patterns; g++) {
                    if (g > 0) {
                        // Gray code: pattern g differs from g − 1 in one pair's sign
                        int flip = Long.numberOfTrailingZeros(g);
                        signs ^= 1L << flip;
                        sum += (signs & (1L << flip)) != 0 ? -2 * c[flip] : 2 * c[flip];
                    }
                    if (asExtreme(sum, observed, tolerance, alternative)) {
                        extreme++;
                    }
                }
                return (double) extreme / patterns;
            }
            long extreme = 1;
            for (long[] pattern : patterns) {
                // Σ cᵢ − 2 Σ of the flipped ones, without a branch on a random bit
                double flipped = 0;
                for (int i = 0; i < pairs; i++) {
                    flipped += c[i] * (pattern[i >>> 6] >>> i & 1L);
                }
                double sum = observed - 2 * flipped;
                if (asExtreme(sum, observed, tolerance, alternative)) {
                    extreme++;
                }
            }
            return (double) extreme / (RANDOM_PATTERNS + 1);
        }

        private static boolean asExtreme(double sum, double observed, double tolerance, Alternative alternative) {
            return switch (alternative) {
                case TWO_SIDED -> Math.abs(sum) >= Math.abs(observed) - tolerance;
                case GREATER -> sum >= observed - tolerance;
                case LESS -> sum <= observed + tolerance;
            };
        }
    }
}
