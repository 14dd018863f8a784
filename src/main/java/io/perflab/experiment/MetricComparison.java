package io.perflab.experiment;

import java.util.List;

/**
 * One metric of an experiment, compared: what the results table, the API and the reports show. Statistics that
 * could not be computed are null, and {@code error} says why; a NaN is never shown as a result.
 *
 * @param metric metric key
 * @param unit unit of the values
 * @param direction {@code lower} or {@code higher} is better
 * @param difference mean(with) − mean(without)
 * @param percent relative change in percent of the baseline mean
 * @param ciLowPercent lower bound of the confidence interval of {@code percent} (Fieller)
 * @param pValue Welch's two-sided p
 * @param holmPValue {@code pValue} after Holm's adjustment across the experiment's metrics
 * @param mdePercent the smallest change (percent of baseline) this n and spread detect with power 0.8
 * @param runsPerVariantFor1Percent runs per variant needed to detect a 1 % change
 */
public record MetricComparison(String metric, String unit, String direction, String description,
                               int nWithout, int nWith, Double meanWithout, Double meanWith, Double sdWithout,
                               Double sdWith, Double difference, Double differenceCiLow, Double differenceCiHigh,
                               Double percent, Double ciLowPercent, Double ciHighPercent, Double t, Double df,
                               Double pValue, Double holmPValue, Double mannWhitneyPValue, Double hodgesLehmann,
                               Double cohenD, String verdict, String reason, List<String> warnings,
                               Double mdePercent, Long runsPerVariantFor1Percent, String error) {
}
