package io.perflab.stats;

import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.special.Beta;
import org.apache.commons.math3.special.Erf;
import org.apache.commons.math3.special.Gamma;

/**
 * Tail probabilities and quantiles of Student's t and the standard normal distribution, accurate in the far
 * tails (p down to 1e-300 relative) and to full double precision for quantiles.
 *
 * <p>Commons Math supplies the regularized incomplete beta function and the complementary error function;
 * this class chooses the argument form that keeps relative accuracy (as R's {@code pt} does) and polishes
 * Commons Math's quantiles, whose solver stops at an absolute accuracy of 1e-9, with Newton steps on the
 * upper tail (as R's {@code qt} does).
 *
 * <p>Student's t upper tail for t ≥ 0 with ν degrees of freedom:
 * P(T &gt; t) = ½·I<sub>ν/(ν+t²)</sub>(ν/2, ½) = ½ − ½·I<sub>t²/(ν+t²)</sub>(½, ν/2).
 *
 * @see <a href="https://dlmf.nist.gov/8.17">DLMF §8.17, incomplete beta function</a>
 */
final class Distributions {

    private static final NormalDistribution NORMAL = new NormalDistribution(null, 0, 1,
            NormalDistribution.DEFAULT_INVERSE_ABSOLUTE_ACCURACY);
    /** Below it, {@link #normalQuantile} starts from the tail's asymptotic form. */
    private static final double DEEP_TAIL = 1e-15;

    private Distributions() {
    }

    /** P(T &gt; t) for Student's t with {@code df} degrees of freedom. */
    static double tUpper(double t, double df) {
        if (t < 0) {
            return 1 - tUpper(-t, df);
        }
        if (Double.isInfinite(df)) {
            return normalUpper(t);
        }
        double t2 = t * t;
        if (t2 > df || t >= 1) {
            // the tail itself: ½ − ½·I(½, ν/2) loses a digit per factor of ten that P falls below ½ (P = 1e-23 came
            // out as 0 for ν = 1000, t = 10); below t = 1 P is above 0.15 and the difference keeps full precision
            return 0.5 * Beta.regularizedBeta(df / (df + t2), df / 2, 0.5, 1e-15, 100_000);
        }
        return 0.5 - 0.5 * Beta.regularizedBeta(t2 / (df + t2), 0.5, df / 2, 1e-15, 100_000);
    }

    /** P(T ≤ t). */
    static double tLower(double t, double df) {
        return tUpper(-t, df);
    }

    /** Density of Student's t. */
    static double tDensity(double t, double df) {
        return new TDistribution(null, df).density(t);
    }

    /**
     * The quantile q with P(T ≤ q) = p, polished so that P(T &gt; q) = (0.5 − p) + 0.5 to full precision.
     */
    static double tQuantile(double p, double df) {
        if (p == 0.5) {
            return 0;
        }
        if (p < 0.5) {
            return -tQuantile((0.5 - p) + 0.5, df);
        }
        double upper = (0.5 - p) + 0.5;
        if (df >= CORNISH_FISHER_MIN_DF && !Double.isInfinite(df) && upper >= 1e-10) {
            double q = newtonFromCornishFisher(p, upper, df);
            if (!Double.isNaN(q)) {
                return q;
            }
        }
        return tQuantileBySolver(p, upper, df);
    }

    /** The quantile for {@code p} ≥ ½ from Commons Math's solver, polished by Newton's steps on the upper tail. */
    static double tQuantileBySolver(double p, double upper, double df) {
        double q = new TDistribution(null, df, 1e-12).inverseCumulativeProbability(p);
        TDistribution dist = new TDistribution(null, df);
        for (int i = 0; i < 8; i++) {
            double density = dist.density(q);
            if (!(density > 0)) {
                break;
            }
            double step = (tUpper(q, df) - upper) / density;
            q += step;
            if (Math.abs(step) <= 1e-15 * Math.abs(q)) {
                break;
            }
        }
        return q;
    }

    /** Degrees of freedom from which the Cornish–Fisher start is close enough for Newton's steps to converge. */
    private static final double CORNISH_FISHER_MIN_DF = 3;

    /**
     * The quantile for {@code p} ≥ ½ by Newton's steps on the upper tail from the Cornish–Fisher expansion of t in
     * the normal quantile z, t ≈ z + g₁/ν + g₂/ν² + g₃/ν³ + g₄/ν⁴ (Abramowitz &amp; Stegun 26.7.5), which is within a
     * few parts in a thousand of it for ν ≥ 3 away from the far tail: two to four steps reach full precision, where
     * Commons Math's bracketing solver costs dozens of evaluations of the incomplete beta function. This is on the
     * path of every comparison (each t test, confidence interval and power figure). NaN when the steps do not
     * settle, for the caller's slower way.
     *
     * @see <a href="https://personal.math.ubc.ca/~cbm/aands/page_949.htm">Abramowitz &amp; Stegun (1964), 26.7.5</a>
     */
    private static double newtonFromCornishFisher(double p, double upper, double df) {
        double z = normalQuantile(p);
        double z2 = z * z;
        double g1 = (z2 + 1) * z / 4;
        double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
        double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
        double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;
        double q = z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
        double logNormalizer = Gamma.logGamma((df + 1) / 2) - Gamma.logGamma(df / 2) - 0.5 * Math.log(df * Math.PI);
        double step = Double.NaN;
        for (int i = 0; i < 12; i++) {
            double density = Math.exp(logNormalizer - (df + 1) / 2 * Math.log1p(q * q / df));
            if (!(density > 0) || !(q > 0)) {
                return Double.NaN;
            }
            step = (tUpper(q, df) - upper) / density;
            q += step;
            if (Math.abs(step) <= 1e-15 * Math.abs(q)) {
                return q;
            }
        }
        // the tail's own rounding can keep the last steps from getting smaller still: settled all the same
        return Math.abs(step) <= 1e-13 * Math.abs(q) ? q : Double.NaN;
    }

    /**
     * The q &gt; 0 with P(T &gt; q) = {@code upper} for an upper tail probability in (0, ½], also where 1 − upper
     * rounds to 1 (the far boundaries of early sequential looks): bisection on log q between the normal quantile,
     * which the t quantile exceeds (or 1 in tails too far for {@link #normalQuantile}), and a bound found by
     * doubling steps. Quantiles beyond 1e154, where t² overflows in {@link #tUpper}, come out at about 1e154.
     */
    static double tUpperQuantile(double upper, double df) {
        if (!(upper > 0 && upper <= 0.5)) {
            throw new IllegalArgumentException("upper tail probability must lie in (0, 0.5], got " + upper);
        }
        if (upper == 0.5) {
            return 0;
        }
        double low = upper > 1e-15 ? Math.log(-normalQuantile(upper)) : 0;
        double step = 1;
        double high = low + step;
        while (tUpper(Math.exp(high), df) > upper) {
            low = high;
            step *= 2;
            high += step;
        }
        while (true) {
            double mid = 0.5 * (low + high);
            if (mid <= low || mid >= high) {
                break;
            }
            if (tUpper(Math.exp(mid), df) > upper) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return Math.exp(0.5 * (low + high));
    }

    /**
     * P(F &gt; f) for Fisher's F with {@code df1} and {@code df2} degrees of freedom (R: {@code pf(f, df1, df2,
     * lower.tail = FALSE)}), as the regularized incomplete beta I<sub>x</sub>(df2/2, df1/2) at x = df2/(df2 + df1·f),
     * which keeps the digits of a small upper tail. An F of 0 or NaN (no spread at all) gives 1.
     */
    static double fUpper(double f, double df1, double df2) {
        if (!(f > 0)) {
            return 1;
        }
        if (f == Double.POSITIVE_INFINITY) {
            return 0;
        }
        return Beta.regularizedBeta(df2 / (df2 + df1 * f), df2 / 2, df1 / 2);
    }

    /** P(Z &gt; z) for the standard normal, accurate relative to its size in the upper tail. */
    static double normalUpper(double z) {
        if (z < 0) {
            return 1 - normalUpper(-z);
        }
        return 0.5 * Erf.erfc(z / Math.sqrt(2));
    }

    /** P(Z ≤ z). */
    static double normalLower(double z) {
        return normalUpper(-z);
    }

    /**
     * The standard normal quantile, polished by Newton steps on the smaller tail. Below p = 1e-15, where Commons
     * Math's inverse (through erf⁻¹(2p − 1)) loses its digits and below about 1e-17 returns −∞, the start is the
     * tail's asymptotic form, z ≈ −√(L − ln L − ln 2π) with L = −2·ln p, and the Newton steps are taken on
     * ln Φ(z) − ln p, which the complementary error function gives to full relative precision down to p ≈ 1e-307.
     */
    static double normalQuantile(double p) {
        if (p == 0.5) {
            return 0;
        }
        if (p > 0.5) {
            return -normalQuantile((0.5 - p) + 0.5);
        }
        if (!(p > 0)) {
            if (p == 0) {
                return Double.NEGATIVE_INFINITY;
            }
            throw new IllegalArgumentException("probability must lie in [0, 1], got " + p);
        }
        if (p < DEEP_TAIL) {
            return deepTailQuantile(p);
        }
        double q = NORMAL.inverseCumulativeProbability(p);
        for (int i = 0; i < 4; i++) {
            double density = NORMAL.density(q);
            if (!(density > 0)) {
                break;
            }
            double step = (normalLower(q) - p) / density;
            q -= step;
            if (Math.abs(step) <= 1e-15 * Math.abs(q)) {
                break;
            }
        }
        return q;
    }

    private static double deepTailQuantile(double p) {
        double logP = Math.log(p);
        double l = -2 * logP;
        double q = -Math.sqrt(l - Math.log(l) - Math.log(2 * Math.PI));
        for (int i = 0; i < 50; i++) {
            double lower = normalLower(q);
            if (!(lower > 0)) {
                break;
            }
            // d ln Φ(q) / dq = φ(q) / Φ(q)
            double step = (Math.log(lower) - logP) * lower / NORMAL.density(q);
            q -= step;
            if (Math.abs(step) <= 1e-15 * Math.abs(q)) {
                break;
            }
        }
        return q;
    }
}
