package io.perflab.experiment;

import io.perflab.display.chart.BoxPlot;
import io.perflab.display.chart.ForestPlot;
import io.perflab.display.chart.PairedPlot;
import io.perflab.display.chart.RunOrderPlot;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Display;
import io.perflab.stats.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The rows of a results table and the plots of their metrics, for the experiment page and the exported report
 * alike, so that both show the same plots with the same whisker rule, colours and labels.
 *
 * <p>The plots are SVG drawn on the server ({@link io.perflab.display.chart}) for both, rather than a charting
 * library in the browser for the page: the report must open from disk without a script or a request, so it needs
 * drawn charts anyway, and drawing the page's with the same code makes them agree by construction. It also keeps
 * the page readable without JavaScript and the plots testable as text; of what a library adds, tooltips come with
 * SVG titles, and the samples behind every plot are one link away.
 */
public final class ResultCharts {

    private ResultCharts() {
    }

    /**
     * The rows of {@code page}, the first {@code plotted} of them with their plots drawn from {@code runs} (which
     * must hold those metrics' samples), each with the notes {@code summary} does not say once.
     */
    public static List<MetricRow> rows(MetricPage page, ResultsSummary summary, List<RunRecord> runs, int plotted) {
        List<MetricRow> rows = new ArrayList<>();
        String previousGroup = null;
        for (MetricComparison c : page.metrics()) {
            int index = rows.size() + 1;
            String group = group(c.key());
            // a value no analysis takes (stored before agents' metrics were bounded) leaves its metric unplotted,
            // as it leaves it uncompared
            boolean plot = index <= plotted && points(runs, c.key()).stream()
                    .allMatch(p -> Sample.problem(p.value()) == null);
            String unit = c.metric().unit();
            rows.add(new MetricRow(c, Objects.equals(group, previousGroup) ? null : group, summary.reason(c),
                    summary.ownNotes(c),
                    plot ? BoxPlot.draw("strip-" + index, c.key(), unit, values(runs, c.key(), VariantName.WITHOUT),
                            values(runs, c.key(), VariantName.WITH)) : null,
                    plot ? RunOrderPlot.draw("order-" + index, c.key(), unit, points(runs, c.key())) : null,
                    plot && c.paired() != null ? pairedPlot("paired-" + index, c) : null));
            previousGroup = group;
        }
        return rows;
    }

    /**
     * The forest plot of {@code metrics}' changes, its axis fitted to the headline metrics among them; null when
     * there are none.
     */
    public static String forest(List<MetricComparison> metrics) {
        if (metrics.isEmpty()) {
            return null;
        }
        ComparisonOptions options = ComparisonOptions.defaults();
        List<ForestPlot.Row> rows = metrics.stream()
                .map(c -> new ForestPlot.Row(c.key(), c.change().percent(), c.change().ciLowPercent(),
                        c.change().ciHighPercent(), c.verdict(), MetricKeys.HEADLINE.contains(c.key())))
                .toList();
        boolean paired = metrics.stream().anyMatch(c -> c.paired() != null);
        boolean looked = metrics.stream().anyMatch(c -> c.paired() != null && c.paired().sequential() != null);
        return ForestPlot.draw("forest", rows, options.equivalenceMarginPercent(),
                Display.level(options.confidenceLevel()), !paired ? "Fieller"
                        : looked ? "t over the pairs; a target's repeated over the looks" : "t over the pairs");
    }

    /**
     * Each analysed pair's change of {@code c}'s metric at its recorded index (from 0, as the samples and the
     * command line name it), with the mean change and its interval.
     */
    private static String pairedPlot(String id, MetricComparison c) {
        List<Double> percents = c.paired().pairPercents();
        List<Integer> indexes = c.paired().pairIndexes();
        List<PairedPlot.Point> points = new ArrayList<>();
        for (int i = 0; i < percents.size(); i++) {
            points.add(new PairedPlot.Point(indexes.get(i), percents.get(i)));
        }
        return PairedPlot.draw(id, c.key(), points, c.change().percent(), c.change().ciLowPercent(),
                c.change().ciHighPercent());
    }

    /** The values of {@code metric} in the successful runs of {@code variant}, in plan order: what the tests used. */
    public static double[] values(List<RunRecord> runs, String metric, VariantName variant) {
        return runs.stream()
                .filter(r -> r.ok() && r.variant().equals(variant.label()) && r.metrics().containsKey(metric))
                .mapToDouble(r -> r.metrics().get(metric))
                .toArray();
    }

    private static List<RunOrderPlot.Point> points(List<RunRecord> runs, String metric) {
        return runs.stream()
                .filter(r -> r.ok() && r.metrics().containsKey(metric))
                .map(r -> new RunOrderPlot.Point(r.ordinal(), VariantName.parse(r.variant()), r.metrics().get(metric)))
                .toList();
    }

    /** The benchmark of an upload's {@code benchmark:metric} key ({@code Join} of {@code Join:ns/op}), else null. */
    static String group(String key) {
        int colon = key.lastIndexOf(':');
        return colon > 0 ? key.substring(0, colon) : null;
    }
}
