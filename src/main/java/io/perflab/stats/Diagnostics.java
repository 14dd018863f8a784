package io.perflab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;
import org.apache.commons.math3.stat.descriptive.moment.Skewness;

/**
 * The checks behind a comparison's {@link StatWarning}s. Each rule and its threshold is stated here once.
 *
 * <ul>
 *   <li>Too few samples: n &lt; {@link Comparison#RECOMMENDED_SAMPLES} in a group.
 *   <li>Constant data: a group's minimum equals its maximum.
 *   <li>Outliers: values outside Tukey's fences [Q₁ − 1.5·IQR, Q₃ + 1.5·IQR] (type-7 quartiles); flagged only.
 *   <li>Drift: Spearman's ρ between value and run index within a group, tested with
 *       t = ρ·√((n − 2)/(1 − ρ²)) on n − 2 degrees of freedom; warned when p &lt; α and n ≥ 8.
 *   <li>Non-normal small samples: for 8 ≤ n &lt; 30, the adjusted Fisher–Pearson skewness G₁ beyond ±1 (a
 *       heuristic: the t-test's coverage suffers with strong skew at such n; the rank test does not assume it).
 * </ul>
 *
 * @see <a href="https://www.pearson.com/en-us/subject-catalog/p/exploratory-data-analysis/P200000006736">
 *     J. W. Tukey (1977), Exploratory Data Analysis</a>
 * @see <a href="https://doi.org/10.2307/2988433">D. N. Joanes, C. A. Gill (1998), Comparing measures of sample
 *     skewness and kurtosis, J. R. Stat. Soc. D 47(1)</a>
 */
final class Diagnostics {

    static final int DRIFT_MIN_SAMPLES = 8;
    static final int SKEW_MIN_SAMPLES = 8;
    static final int SKEW_MAX_SAMPLES = 30;
    static final double SKEW_LIMIT = 1.0;
    static final int OUTLIERS_LISTED = 5;

    private Diagnostics() {
    }

    static List<StatWarning> of(String group, Sample sample, Summary s, double alpha) {
        List<StatWarning> warnings = new ArrayList<>();
        if (s.n() < Comparison.RECOMMENDED_SAMPLES) {
            warnings.add(new StatWarning(StatWarning.Kind.TOO_FEW_SAMPLES, group, "only " + s.n() + " '" + group
                    + "' samples: need ≥ " + Comparison.RECOMMENDED_SAMPLES
                    + " for a trustworthy confidence interval"));
        }
        if (s.isConstant()) {
            warnings.add(new StatWarning(StatWarning.Kind.CONSTANT_DATA, group, "all " + s.n() + " '" + group
                    + "' samples equal " + Display.value(s.min()) + ": the metric may not be measured"));
            return warnings;
        }
        outliers(group, s).ifPresent(warnings::add);
        sample.runOrder().ifPresent(order -> drift(group, sample.valuesShared(), order, alpha)
                .ifPresent(warnings::add));
        if (s.n() >= SKEW_MIN_SAMPLES && s.n() < SKEW_MAX_SAMPLES) {
            double g1 = new Skewness().evaluate(sample.valuesShared());
            if (Math.abs(g1) > SKEW_LIMIT) {
                warnings.add(new StatWarning(StatWarning.Kind.NON_NORMAL, group, String.format(Locale.ROOT,
                        "'%s' samples are strongly skewed (G1 = %.2f, n = %d): trust the rank test over the t-test",
                        group, g1, s.n())));
            }
        }
        return warnings;
    }

    private static java.util.Optional<StatWarning> outliers(String group, Summary s) {
        double iqr = s.q3() - s.q1();
        double low = s.q1() - 1.5 * iqr;
        double high = s.q3() + 1.5 * iqr;
        double[] out = Arrays.stream(s.sortedValues()).filter(v -> v < low || v > high).toArray();
        if (out.length == 0) {
            return java.util.Optional.empty();
        }
        String listed = Arrays.stream(out).limit(OUTLIERS_LISTED).mapToObj(Display::value)
                .collect(Collectors.joining(", "));
        return java.util.Optional.of(new StatWarning(StatWarning.Kind.OUTLIERS, group, out.length + " '" + group
                + "' sample" + (out.length == 1 ? "" : "s") + " outside Tukey's fences [" + Display.value(low)
                + ", " + Display.value(high) + "]: " + listed + (out.length > OUTLIERS_LISTED ? ", …" : "")
                + " (kept in the analysis)"));
    }

    private static java.util.Optional<StatWarning> drift(String group, double[] values, long[] order, double alpha) {
        int n = values.length;
        if (n < DRIFT_MIN_SAMPLES) {
            return java.util.Optional.empty();
        }
        double[] index = Arrays.stream(order).asDoubleStream().toArray();
        double rho = new SpearmansCorrelation().correlation(index, values);
        if (Double.isNaN(rho)) {
            return java.util.Optional.empty();
        }
        double p = Math.abs(rho) >= 1 ? 0
                : 2 * Distributions.tUpper(Math.abs(rho) * Math.sqrt((n - 2) / (1 - rho * rho)), n - 2);
        if (p >= alpha) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new StatWarning(StatWarning.Kind.DRIFT, group, String.format(Locale.ROOT,
                "'%s' values %s with run order (Spearman rho = %.2f, %s): warm-up, throttling or a noisy neighbour?",
                group, rho > 0 ? "rise" : "fall", rho, Display.pEquals(p))));
    }
}
