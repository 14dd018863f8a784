package io.perflab.stats;

/**
 * Two-sample t-tests of x = {@code with} against y = {@code without}, computed exactly as R's
 * {@code t.test(with, without)} (R 4.2 {@code stats:::t.test.default}).
 *
 * <p><b>Welch</b>: SE = √(s²ₓ/nₓ + s²ᵧ/nᵧ), ν = SE⁴ / ((s²ₓ/nₓ)²/(nₓ − 1) + (s²ᵧ/nᵧ)²/(nᵧ − 1)).
 * <b>Student</b>: s²ₚ = ((nₓ − 1)s²ₓ + (nᵧ − 1)s²ᵧ)/(nₓ + nᵧ − 2), SE = sₚ·√(1/nₓ + 1/nᵧ), ν = nₓ + nᵧ − 2.
 * Both: t = (x̄ − ȳ)/SE; two-sided p = 2·P(T<sub>ν</sub> &gt; |t|); the interval is
 * (t ∓ t<sub>1−α/2,ν</sub>)·SE, one-sided (−∞, (t + t<sub>1−α,ν</sub>)·SE] or [(t − t<sub>1−α,ν</sub>)·SE, ∞).
 *
 * @see <a href="https://doi.org/10.2307/2332510">B. L. Welch (1947), The generalization of "Student's" problem
 *     when several different population variances are involved, Biometrika 34</a>
 * @see <a href="https://doi.org/10.2307/3002019">F. E. Satterthwaite (1946), An approximate distribution of
 *     estimates of variance components, Biometrics Bulletin 2(6)</a>
 */
public final class TTest {

    /** R's title of Welch's test. */
    public static final String WELCH_METHOD = "Welch Two Sample t-test";
    /** R's title of the pooled-variance test (after {@code strwrap} drops the leading blank). */
    public static final String STUDENT_METHOD = "Two Sample t-test";

    private TTest() {
    }

    /** Welch's unequal-variances t-test of {@code with} − {@code without}. */
    public static TTestResult welch(double[] with, double[] without, Alternative alternative,
            double confidenceLevel) {
        return welch(summary(with, "with"), summary(without, "without"), alternative, confidenceLevel);
    }

    /** Student's pooled-variance t-test of {@code with} − {@code without}. */
    public static TTestResult student(double[] with, double[] without, Alternative alternative,
            double confidenceLevel) {
        return student(summary(with, "with"), summary(without, "without"), alternative, confidenceLevel);
    }

    private static Summary summary(double[] values, String group) {
        Inputs.requireSample(values, group, 2);
        return Summary.of(values, group);
    }

    static TTestResult welch(Summary x, Summary y, Alternative alternative, double confidenceLevel) {
        requireTwo(x, y);
        double stderrx = Math.sqrt(x.variance() / x.n());
        double stderry = Math.sqrt(y.variance() / y.n());
        double stderr = Math.sqrt(stderrx * stderrx + stderry * stderry);
        double df = Math.pow(stderr, 4)
                / (Math.pow(stderrx, 4) / (x.n() - 1) + Math.pow(stderry, 4) / (y.n() - 1));
        return finish(WELCH_METHOD, x, y, stderr, df, alternative, confidenceLevel);
    }

    static TTestResult student(Summary x, Summary y, Alternative alternative, double confidenceLevel) {
        requireTwo(x, y);
        double df = x.n() + y.n() - 2.0;
        double v = ((x.n() - 1) * x.variance() + (y.n() - 1) * y.variance()) / df;
        double stderr = Math.sqrt(v * (1.0 / x.n() + 1.0 / y.n()));
        return finish(STUDENT_METHOD, x, y, stderr, df, alternative, confidenceLevel);
    }

    private static void requireTwo(Summary x, Summary y) {
        if (x.n() < 2) {
            throw new IllegalArgumentException("not enough 'with' observations: " + x.n() + " (need ≥ 2)");
        }
        if (y.n() < 2) {
            throw new IllegalArgumentException("not enough 'without' observations: " + y.n() + " (need ≥ 2)");
        }
    }

    private static TTestResult finish(String method, Summary x, Summary y, double stderr, double df,
            Alternative alternative, double confidenceLevel) {
        Inputs.requireConfidenceLevel(confidenceLevel);
        double mx = x.mean();
        double my = y.mean();
        if (stderr < 10 * Math.ulp(1.0) * Math.max(Math.abs(mx), Math.abs(my)) || stderr == 0) {
            throw new IllegalArgumentException("data are essentially constant: 'with' and 'without' have (almost)"
                    + " no variation (with: " + describe(x) + "; without: " + describe(y) + ")");
        }
        double t = (mx - my) / stderr;
        double p;
        double low;
        double high;
        switch (alternative) {
            case LESS -> {
                p = Distributions.tLower(t, df);
                low = Double.NEGATIVE_INFINITY;
                high = (t + Distributions.tQuantile(confidenceLevel, df)) * stderr;
            }
            case GREATER -> {
                p = Distributions.tUpper(t, df);
                low = (t - Distributions.tQuantile(confidenceLevel, df)) * stderr;
                high = Double.POSITIVE_INFINITY;
            }
            default -> {
                p = 2 * Distributions.tLower(-Math.abs(t), df);
                double alpha = 1 - confidenceLevel;
                double q = Distributions.tQuantile(1 - alpha / 2, df);
                low = (t - q) * stderr;
                high = (t + q) * stderr;
            }
        }
        return new TTestResult(method, t, df, p, low, high, mx - my, stderr, mx, my, confidenceLevel, alternative);
    }

    private static String describe(Summary s) {
        return "n = " + s.n() + ", mean = " + s.mean() + ", sd = " + s.sd();
    }
}
