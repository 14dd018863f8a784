package io.perflab.stats;

/**
 * The outcome of a t-test of {@code with} (x) against {@code without} (y), with the fields of R's {@code htest}
 * object. For the paired test the difference is the mean of the pairwise differences (R's "mean difference"); for
 * the one-sample test it is the mean, and {@code meanWithout} is 0.
 *
 * @param method R's title: {@code Welch Two Sample t-test}, {@code Two Sample t-test}, {@code Paired t-test} or
 *     {@code One Sample t-test}
 * @param t the statistic difference/SE
 * @param df degrees of freedom (Welch–Satterthwaite, n<sub>x</sub> + n<sub>y</sub> − 2, or pairs − 1)
 * @param pValue p-value for {@code alternative}
 * @param ciLow lower confidence bound of the difference ({@code -Infinity} for {@link Alternative#LESS})
 * @param ciHigh upper confidence bound ({@code +Infinity} for {@link Alternative#GREATER})
 * @param difference x̄ − ȳ; for the paired test the mean of the differences
 * @param stdErr standard error of the difference
 * @param meanWith x̄
 * @param meanWithout ȳ
 * @param confidenceLevel the level of the interval, e.g. 0.95
 * @param alternative the alternative hypothesis
 */
public record TTestResult(String method, double t, double df, double pValue, double ciLow, double ciHigh,
        double difference, double stdErr, double meanWith, double meanWithout, double confidenceLevel,
        Alternative alternative) {

    /** Whether this is the paired test ({@code t.test(..., paired = TRUE)}). */
    public boolean paired() {
        return TTest.PAIRED_METHOD.equals(method);
    }
}
