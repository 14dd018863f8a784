package io.perflab.stats;

import java.util.Arrays;

/**
 * The Wilcoxon rank-sum / Mann–Whitney test with R's method choice, and the Hodges–Lehmann shift with its
 * confidence interval (R 4.2 {@code stats:::wilcox.test.default}, two-sample branch, {@code correct = TRUE}).
 *
 * <p><b>Exact</b> (nₓ &lt; 50, nᵧ &lt; 50 and no ties): p from the exact distribution of W
 * ({@link WilcoxonDistribution}); the interval is [D₍qᵤ₎, D₍nₓnᵧ−qᵤ+1₎] with qᵤ = {@code qwilcox(α/2, nₓ, nᵧ)}
 * (at least 1) and D₍ₖ₎ the k-th smallest difference xᵢ − yⱼ; one-sided with α instead of α/2.
 *
 * <p><b>Normal approximation</b> otherwise: z = (W − nₓnᵧ/2 − c)/σ with continuity correction c = ½·sign
 * (two-sided), and σ² = nₓnᵧ/12·((N + 1) − Σ(tⱼ³ − tⱼ)/(N(N − 1))) over tie groups tⱼ, N = nₓ + nᵧ. The
 * interval bounds are the shifts d at which the same standardised statistic of {x − d, y} crosses ∓z<sub>1−α/2</sub>.
 * R finds them with {@code uniroot(tol = 1e-4)}; the statistic is a step function that jumps only at the
 * differences D₍ₖ₎, so this class returns the exact crossing D₍ₖ*₎ (R's value to within its root tolerance).
 *
 * <p>The estimate is always the Hodges–Lehmann shift, the median of all differences (R's exact branch returns
 * the same; its normal branch returns a {@code uniroot} approximation of it). Differences are never enumerated:
 * see {@link PairwiseDifferences}.
 *
 * @see <a href="https://doi.org/10.1214/aoms/1177704172">J. L. Hodges, E. L. Lehmann (1963), Estimates of
 *     location based on rank tests, Ann. Math. Statist. 34(2)</a>
 * @see <a href="https://www.wiley.com/en-us/Nonparametric+Statistical+Methods%2C+3rd+Edition-p-9780470387375">
 *     M. Hollander, D. A. Wolfe, E. Chicken (2014), Nonparametric Statistical Methods, 3rd ed., §4.1–4.3</a>
 */
public final class RankSumTest {

    /** R uses the exact distribution only while both samples are smaller than this (and there are no ties). */
    public static final int EXACT_LIMIT = 50;

    private RankSumTest() {
    }

    /** Tests {@code with} against {@code without} and estimates the shift {@code with − without}. */
    public static RankSumResult test(double[] with, double[] without, Alternative alternative,
            double confidenceLevel) {
        Inputs.requireSample(with, "with", 1);
        Inputs.requireSample(without, "without", 1);
        Inputs.requireConfidenceLevel(confidenceLevel);
        double[] x = with.clone();
        double[] y = without.clone();
        Arrays.sort(x);
        Arrays.sort(y);
        return sorted(x, y, alternative, confidenceLevel);
    }

    /** As {@link #test} for samples already sorted ascending. */
    static RankSumResult sorted(double[] x, double[] y, Alternative alternative, double confidenceLevel) {
        int nx = x.length;
        int ny = y.length;
        Ranks ranks = Ranks.of(x, y);
        double w = ranks.rankSumOfX - nx * (nx + 1.0) / 2;
        boolean ties = ranks.tieTerm > 0;
        PairwiseDifferences diffs = new PairwiseDifferences(x, y);
        double estimate = diffs.median();
        double alpha = 1 - confidenceLevel;
        if (nx < EXACT_LIMIT && ny < EXACT_LIMIT && !ties) {
            return exact(nx, ny, w, diffs, estimate, alternative, confidenceLevel, alpha);
        }
        double mn = (double) nx * ny;
        double z = w - mn / 2;
        double sigma = Math.sqrt((mn / 12) * ((nx + ny + 1) - ranks.tieTerm / ((double) (nx + ny) * (nx + ny - 1))));
        double correction = switch (alternative) {
            case TWO_SIDED -> Math.signum(z) * 0.5;
            case GREATER -> 0.5;
            case LESS -> -0.5;
        };
        z = (z - correction) / sigma;
        double p = switch (alternative) {
            case LESS -> Distributions.normalLower(z);
            case GREATER -> Distributions.normalUpper(z);
            case TWO_SIDED -> 2 * Math.min(Distributions.normalLower(z), Distributions.normalUpper(z));
        };
        NormalInterval interval = new NormalInterval(x, y, diffs, alternative);
        double low = Double.NEGATIVE_INFINITY;
        double high = Double.POSITIVE_INFINITY;
        switch (alternative) {
            case TWO_SIDED -> {
                low = interval.root(-Distributions.normalQuantile(alpha / 2));
                high = interval.root(Distributions.normalQuantile(alpha / 2));
            }
            case GREATER -> low = interval.root(-Distributions.normalQuantile(alpha));
            case LESS -> high = interval.root(Distributions.normalQuantile(alpha));
        }
        return new RankSumResult("Wilcoxon rank sum test with continuity correction", w, p, false, estimate, low,
                high, confidenceLevel, alternative);
    }

    private static RankSumResult exact(int nx, int ny, double w, PairwiseDifferences diffs, double estimate,
            Alternative alternative, double confidenceLevel, double alpha) {
        WilcoxonDistribution dist = WilcoxonDistribution.of(nx, ny);
        double mn = (double) nx * ny;
        double p = switch (alternative) {
            case TWO_SIDED -> Math.min(1,
                    2 * (w > mn / 2 ? dist.cdf(w - 1, false) : dist.cdf(w, true)));
            case GREATER -> dist.cdf(w - 1, false);
            case LESS -> dist.cdf(w, true);
        };
        int qu = dist.quantile(alternative == Alternative.TWO_SIDED ? alpha / 2 : alpha);
        if (qu == 0) {
            qu = 1;
        }
        long ql = (long) nx * ny - qu;
        double achievedAlpha = (alternative == Alternative.TWO_SIDED ? 2 : 1) * dist.cdf(qu - 1, true);
        double low = alternative == Alternative.LESS ? Double.NEGATIVE_INFINITY : diffs.select(qu);
        double high = alternative == Alternative.GREATER ? Double.POSITIVE_INFINITY : diffs.select(ql + 1);
        double level = achievedAlpha - alpha > alpha / 2 ? 1 - achievedAlpha : confidenceLevel;
        return new RankSumResult("Wilcoxon rank sum exact test", w, p, true, estimate, low, high, level,
                alternative);
    }

    /** Mid-ranks of the combined sample: the rank sum of x and Σ(t³ − t) over tie groups. */
    static final class Ranks {
        final double rankSumOfX;
        final double tieTerm;

        private Ranks(double rankSumOfX, double tieTerm) {
            this.rankSumOfX = rankSumOfX;
            this.tieTerm = tieTerm;
        }

        /** Ranks of x ∪ y, both ascending, by merging. */
        static Ranks of(double[] x, double[] y) {
            int i = 0;
            int j = 0;
            long position = 0;
            double rankSum = 0;
            double tieTerm = 0;
            while (i < x.length || j < y.length) {
                double v = j >= y.length || (i < x.length && x[i] <= y[j]) ? x[i] : y[j];
                int inX = 0;
                while (i < x.length && x[i] == v) {
                    i++;
                    inX++;
                }
                int inY = 0;
                while (j < y.length && y[j] == v) {
                    j++;
                    inY++;
                }
                long t = inX + inY;
                double midRank = position + (t + 1) / 2.0;
                rankSum += inX * midRank;
                if (t > 1) {
                    tieTerm += (double) t * t * t - t;
                }
                position += t;
            }
            return new Ranks(rankSum, tieTerm);
        }
    }

    /** The crossing points of the normal-approximation statistic as a function of the shift d. */
    private static final class NormalInterval {
        private final double[] x;
        private final double[] y;
        private final PairwiseDifferences diffs;
        private final Alternative alternative;
        private final double sigmaBetweenJumps;
        private final double mn;

        NormalInterval(double[] x, double[] y, PairwiseDifferences diffs, Alternative alternative) {
            this.x = x;
            this.y = y;
            this.diffs = diffs;
            this.alternative = alternative;
            this.mn = (double) x.length * y.length;
            int n = x.length + y.length;
            // away from the jumps x − d shares no value with y: only ties within each sample remain
            double tieTerm = withinTies(x) + withinTies(y);
            this.sigmaBetweenJumps = Math.sqrt((mn / 12) * ((n + 1) - tieTerm / ((double) n * (n - 1))));
        }

        private static double withinTies(double[] ascending) {
            double term = 0;
            int i = 0;
            while (i < ascending.length) {
                int j = i;
                while (j < ascending.length && ascending[j] == ascending[i]) {
                    j++;
                }
                double t = j - i;
                term += t * t * t - t;
                i = j;
            }
            return term;
        }

        private double correction(double dz) {
            return switch (alternative) {
                case TWO_SIDED -> Math.signum(dz) * 0.5;
                case GREATER -> 0.5;
                case LESS -> -0.5;
            };
        }

        /** R's standardised statistic W(d) of {x − d, y}, with the ties present at d. */
        private double statisticAt(double d) {
            double[] shifted = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                shifted[i] = x[i] - d;
            }
            Ranks r = Ranks.of(shifted, y);
            int n = x.length + y.length;
            double dz = r.rankSumOfX - x.length * (x.length + 1.0) / 2 - mn / 2;
            double sigma = Math.sqrt((mn / 12) * ((n + 1) - r.tieTerm / ((double) n * (n - 1))));
            return (dz - correction(dz)) / sigma;
        }

        /** Between the k-th and (k+1)-th smallest difference: dz = nₓnᵧ/2 − k. */
        private double statisticInGap(long k) {
            double dz = mn / 2 - k;
            return (dz - correction(dz)) / sigmaBetweenJumps;
        }

        /** The shift where the statistic crosses zq, as R's {@code root(zq)}. */
        double root(double zq) {
            double low = x[0] - y[y.length - 1];
            double high = x[x.length - 1] - y[0];
            if (statisticAt(low) - zq <= 0) {
                return low;
            }
            if (statisticAt(high) - zq >= 0) {
                return high;
            }
            // smallest k with statisticInGap(k) ≤ zq; the statistic is non-increasing in k
            long a = 0;
            long b = diffs.size();
            if (statisticInGap(b) - zq > 0) {
                return high;
            }
            while (a < b) {
                long mid = (a + b) >>> 1;
                if (statisticInGap(mid) - zq <= 0) {
                    b = mid;
                } else {
                    a = mid + 1;
                }
            }
            return a == 0 ? low : diffs.select(a);
        }
    }
}
