/**
 * PerfLab's statistics: pure Java on Apache Commons Math, no framework, no I/O.
 *
 * <p>Convention, as R's {@code t.test(with, without)}: x = {@code with}, y = {@code without} (the baseline),
 * difference = mean(with) − mean(without), relative change = 100·(mean(with) − mean(without))/|mean(without)|
 * (100·(mean(with)/mean(without) − 1) for a positive baseline; {@link io.perflab.stats.RelativeChange}).
 *
 * <pre>{@code
 * ComparisonOptions options = ComparisonOptions.defaults()          // 95 %, two-sided, α 0.05, margin 1 %
 *         .withConfidenceLevel(0.99);
 * ComparisonResult r = Comparison.compare(with, without, Direction.LOWER_IS_BETTER, options);
 * r.welch().pValue();                  // R: t.test(with, without)$p.value
 * r.mannWhitney().estimate();          // Hodges–Lehmann shift, R: wilcox.test(..., conf.int = TRUE)$estimate
 * r.relativeChange();                  // percent change with Fieller's interval
 * r.decision();                        // IMPROVED / REGRESSED / UNCHANGED / INCONCLUSIVE and why
 * r.warnings();                        // too few samples, constant data, outliers, drift, skew
 *
 * List<MetricOutcome> all = ExperimentAnalysis.analyze(metrics, options);   // Holm across metrics
 * List<ChangePoint> changes = EDivisive.defaults().detect(history);        // metric history
 * String text = io.perflab.stats.format.HtestPrinter.tTest(r.welch());    // R's print-out
 *
 * TTestResult p = TTest.paired(with, without, Alternative.TWO_SIDED, 0.95);  // R: t.test(..., paired = TRUE)
 * PairedAnalysis a = PairedAnalysis.analyze(pairs, options);  // duet/alternating: pair log ratios, components
 * SequentialLook look = SequentialPlan.of(0.05, maxPairs).look(pairsAtLooks, ratios, budgetSpent);
 * }</pre>
 *
 * <p>Reference values of the tests come from GNU R 4.2.2 ({@code src/test/resources/stats/*.R}).
 */
package io.perflab.stats;
