package io.perflab.report;

import io.perflab.paired.PairedSamples;
import io.perflab.runner.experiment.VariantName;
import io.perflab.stats.Alternative;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.PairedAnalysis;
import io.perflab.stats.TTest;
import io.perflab.stats.format.HtestPrinter;

/**
 * R's {@code print(t.test(with, without))} for one metric of a report, from the same samples the results table
 * was computed from, so that anyone with R and the embedded samples gets the same block. In a paired design it is
 * {@code print(t.test(with, without, paired = TRUE))} of the pairs' window means: the pair, not the window, is the
 * unit of replication.
 */
final class RBlocks {

    /**
     * Said above a paired design's print-out: its p-value and interval are of the differences in the metric's units,
     * while the verdict, Δ % and the page's p are of the pairs' log ratios, so the two p-values differ.
     */
    static final String PAIRED_NOTE = "\n# t.test(with, without, paired = TRUE) of the pairs' window means, in the "
            + "metric's units.\n# The verdict, Δ % and its p come from the pairs' log ratios, t.test(log(with / "
            + "without)): another test, so another p-value.\n";

    private RBlocks() {
    }

    /** The print-out, or a line saying why there is none (too few runs, constant data). */
    static String tTest(ExperimentReport report, String metric) {
        ComparisonOptions options = ComparisonOptions.defaults();
        try {
            if (report.paired()) {
                PairedAnalysis analysis = PairedAnalysis.analyze(PairedSamples.of(report.trialResults())
                        .windows(metric), options);
                return analysis.difference() != null ? PAIRED_NOTE + HtestPrinter.tTest(analysis.difference())
                        : "\nno t-test: data are essentially constant: every pair's difference 'with' − 'without'"
                        + " is the same; the change and the verdict come from the pairs' log ratios\n";
            }
            return HtestPrinter.tTest(TTest.welch(report.values(metric, VariantName.WITH),
                    report.values(metric, VariantName.WITHOUT), Alternative.TWO_SIDED,
                    options.confidenceLevel()));
        } catch (IllegalArgumentException notComputable) {
            return "\nno t-test: " + notComputable.getMessage() + "\n";
        }
    }
}
