package io.perflab.stats;

/**
 * t-tests of x = {@code with} against y = {@code without}, computed exactly as R's {@code t.test(with, without)}
 * (R 4.2 {@code stats:::t.test.default}).
 *
 * <p><b>Welch</b>: SE = √(s²ₓ/nₓ + s²ᵧ/nᵧ), ν = SE⁴ / ((s²ₓ/nₓ)²/(nₓ − 1) + (s²ᵧ/nᵧ)²/(nᵧ − 1)).
 * <b>Student</b>: s²ₚ = ((nₓ − 1)s²ₓ + (nᵧ − 1)s²ᵧ)/(nₓ + nᵧ − 2), SE = sₚ·√(1/nₓ + 1/nᵧ), ν = nₓ + nᵧ − 2.
 * <b>Paired</b> ({@code paired = TRUE}): the differences dᵢ = xᵢ − yᵢ of n pairs, estimate d̄, SE = s<sub>d</sub>/√n,
 * ν = n − 1 (a one-sample test of the differences).
 * All: t = estimate/SE; two-sided p = 2·P(T<sub>ν</sub> &gt; |t|); the interval is
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
    /** R's title of the paired test. */
    public static final String PAIRED_METHOD = "Paired t-test";
    /** R's title of the one-sample test. */
    public static final String ONE_SAMPLE_METHOD = "One Sample t-test";

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

    /**
     * The paired t-test of {@code with} − {@code without}, as R's {@code t.test(with, without, paired = TRUE)}:
     * pair i is ({@code with[i]}, {@code without[i]}).
     *
     * @throws IllegalArgumentException when the lengths differ, there are fewer than 2 pairs, a value is not
     *     finite, or the differences are (essentially) constant — R stops with "data are essentially constant"
     *     when the standard error is below 10·ε·|d̄|; a difference that is exactly 0 everywhere, for which R
     *     returns NaN, is refused the same way
     */
    public static TTestResult paired(double[] with, double[] without, Alternative alternative,
            double confidenceLevel) {
        Inputs.requireSample(with, "with", 0);
        Inputs.requireSample(without, "without", 0);
        if (with.length != without.length) {
            throw new IllegalArgumentException("a paired test needs one 'without' value for each 'with' value: 'with'"
                    + " has " + with.length + " and 'without' " + without.length);
        }
        if (with.length < 2) {
            throw new IllegalArgumentException("not enough pairs: " + with.length + " (need ≥ 2)");
        }
        double[] d = new double[with.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = with[i] - without[i];
        }
        return oneSample(PAIRED_METHOD, d, Sums.mean(with), Sums.mean(without), "the differences 'with' − 'without'",
                alternative, confidenceLevel);
    }

    /**
     * The one-sample t-test of the mean of {@code values} against 0, as R's {@code t.test(values)}; the result's
     * {@code meanWith} and {@code difference} are the mean, {@code meanWithout} is 0.
     *
     * @throws IllegalArgumentException for fewer than 2 values, a value that is not finite, or essentially
     *     constant values
     */
    public static TTestResult oneSample(double[] values, Alternative alternative, double confidenceLevel) {
        return oneSample(values, "values", alternative, confidenceLevel);
    }

    /** {@link #oneSample(double[], Alternative, double)} naming the values {@code what} in error messages. */
    static TTestResult oneSample(double[] values, String what, Alternative alternative, double confidenceLevel) {
        Inputs.requireSample(values, what, 0);
        if (values.length < 2) {
            throw new IllegalArgumentException("not enough " + what + ": " + values.length + " (need ≥ 2)");
        }
        return oneSample(ONE_SAMPLE_METHOD, values, Sums.mean(values), 0, "the " + what, alternative,
                confidenceLevel);
    }

    private static TTestResult oneSample(String method, double[] values, double meanWith, double meanWithout,
            String what, Alternative alternative, double confidenceLevel) {
        int n = values.length;
        double m = Sums.mean(values);
        double stderr = Math.sqrt(Sums.sumOfSquaredDeviations(values, m) / (n - 1) / n);
        if (stderr < 10 * Math.ulp(1.0) * Math.abs(m) || stderr == 0) {
            throw new IllegalArgumentException("data are essentially constant: " + what + " are (almost) all the same"
                    + " (n = " + n + ", mean = " + m + ", sd = " + stderr * Math.sqrt(n) + ")");
        }
        return finish(method, m, meanWith, meanWithout, stderr, n - 1.0, alternative, confidenceLevel);
    }

    private static Summary summary(double[] values, String group) {
        Inputs.requireSample(values, group, 2);
        return Summary.of(values, group);
    }

    static TTestResult welch(Summary x, Summary y, Alternative alternative, double confidenceLevel) {
        requireTwo(x, y);
        double a = x.variance() / x.n();
        double b = y.variance() / y.n();
        double stderr = Math.sqrt(a + b);
        // Welch–Satterthwaite, (a + b)² / (a²/(nx − 1) + b²/(ny − 1)), written in the shares of a + b so that it
        // neither overflows nor underflows: stderr⁴ did for standard errors beyond 1e±77 (values of 1e100)
        double shareX = a / (a + b);
        double shareY = b / (a + b);
        double df = 1 / (shareX * shareX / (x.n() - 1) + shareY * shareY / (y.n() - 1));
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
        return finish(method, mx - my, mx, my, stderr, df, alternative, confidenceLevel);
    }

    private static TTestResult finish(String method, double estimate, double mx, double my, double stderr,
            double df, Alternative alternative, double confidenceLevel) {
        Inputs.requireConfidenceLevel(confidenceLevel);
        double t = estimate / stderr;
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
        return new TTestResult(method, t, df, p, low, high, estimate, stderr, mx, my, confidenceLevel, alternative);
    }

    private static String describe(Summary s) {
        return "n = " + s.n() + ", mean = " + s.mean() + ", sd = " + s.sd();
    }
}
