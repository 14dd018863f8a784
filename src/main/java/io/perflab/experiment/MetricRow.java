package io.perflab.experiment;

import java.util.List;

/**
 * One metric as the results table and the plots show it.
 *
 * @param comparison the metric compared
 * @param group the benchmark whose metrics start at this row ({@code Join} for {@code Join:ns/op}) in an upload of
 *     several benchmarks, else null
 * @param reason why its verdict is what it is, unless the results say it once for many metrics
 * @param notes its warnings (and why it could not be compared) that the results do not say once for many metrics
 * @param boxPlot the samples per variant as SVG, or null where the page draws no plot of this metric
 * @param runOrderPlot the samples in plan order as SVG, or null
 * @param pairedPlot in a paired design, each pair's change in run order as SVG, else null
 */
public record MetricRow(MetricComparison comparison, String group, String reason, List<String> notes, String boxPlot,
                        String runOrderPlot, String pairedPlot) {

    public MetricRow {
        notes = List.copyOf(notes);
    }

    /** A row of the fresh design. */
    public MetricRow(MetricComparison comparison, String group, String reason, List<String> notes, String boxPlot,
                     String runOrderPlot) {
        this(comparison, group, reason, notes, boxPlot, runOrderPlot, null);
    }

    public boolean plotted() {
        return boxPlot != null;
    }
}
