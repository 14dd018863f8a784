package io.perflab.stats;

/**
 * The outcome of a two-sample t-test of {@code with} (x) against {@code without} (y), with the fields of R's
 * {@code htest} object.
 *
 * @param method R's title, {@code Welch Two Sample t-test} or {@code Two Sample t-test}
 * @param t the statistic (x̄ − ȳ)/SE
 * @param df degrees of freedom (Welch–Satterthwaite or n<sub>x</sub> + n<sub>y</sub> − 2)
 * @param pValue p-value for {@code alternative}
 * @param ciLow lower confidence bound of x̄ − ȳ ({@code -Infinity} for {@link Alternative#LESS})
 * @param ciHigh upper confidence bound ({@code +Infinity} for {@link Alternative#GREATER})
 * @param difference x̄ − ȳ
 * @param stdErr standard error of the difference
 * @param meanWith x̄
 * @param meanWithout ȳ
 * @param confidenceLevel the level of the interval, e.g. 0.95
 * @param alternative the alternative hypothesis
 */
public record TTestResult(String method, double t, double df, double pValue, double ciLow, double ciHigh,
        double difference, double stdErr, double meanWith, double meanWithout, double confidenceLevel,
        Alternative alternative) {
}
