package io.perflab.stats.format;

import io.perflab.stats.Alternative;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.ComparisonResult;
import io.perflab.stats.ConstantChange;
import io.perflab.stats.Display;
import io.perflab.stats.MetricOutcome;
import io.perflab.stats.StatWarning;
import io.perflab.stats.Summary;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchstat-like verdict table of {@code perflab compare} and {@code perflab ab}: per metric the mean ± the
 * half-width of its confidence interval (in percent of the mean) on each side, the change Δ in percent, its
 * Fieller interval, the Holm-adjusted Welch p-value and the verdict; then the reasons and warnings as numbered
 * notes.
 *
 * <pre>
 * metric               without         with            Δ        95% CI of Δ         p          verdict
 * user_cpu_us_per_req  18.15 ± 1.9%    16.97 ± 1.2%    -6.48%   [-8.52%, -4.43%]    3.081e-08  improved
 * </pre>
 */
public final class ComparisonTable {

    private static final String[] HEADER = {"metric", "without", "with", "Δ", "CI of Δ", "p", "verdict"};

    private ComparisonTable() {
    }

    /** The table followed by its notes; every line ends with a newline. */
    public static String render(List<MetricOutcome> outcomes, ComparisonOptions options) {
        List<String[]> rows = new ArrayList<>();
        String[] header = HEADER.clone();
        header[4] = Display.level(options.confidenceLevel()) + " CI of Δ";
        rows.add(header);
        List<String> notes = new ArrayList<>();
        for (MetricOutcome o : outcomes) {
            if (o.constant().isPresent()) {
                ConstantChange c = o.constant().get();
                notes.add(o.name() + ": " + c.reason());
                rows.add(new String[] {o.name(), constantSide(c.without(), c.withoutRuns()),
                    constantSide(c.with(), c.withRuns()), c.percent().map(Display::percent).orElse("n/a"), "exact",
                    "—", c.verdict().label() + " [" + notes.size() + "]"});
                continue;
            }
            if (o.result().isEmpty()) {
                rows.add(new String[] {o.name(), "", "", "", "", "", "not compared [" + (notes.size() + 1) + "]"});
                notes.add(o.name() + ": " + o.error().orElse("not compared"));
                continue;
            }
            ComparisonResult r = o.result().get();
            String delta = r.relativeChange().map(c -> Display.percent(c.percent())).orElse("n/a");
            String interval = r.relativeChange().map(c -> Display.percentInterval(c.ciLowPercent(),
                    c.ciHighPercent())).orElse("n/a");
            String verdict = r.verdict().label();
            StringBuilder marks = new StringBuilder();
            notes.add(o.name() + ": " + r.decision().reason());
            marks.append(notes.size());
            for (StatWarning w : r.warnings()) {
                notes.add(o.name() + ": warning: " + w.message());
                marks.append(',').append(notes.size());
            }
            rows.add(new String[] {o.name(), side(r.without(), options), side(r.with(), options), delta, interval,
                    Display.pValue(r.decision().pValue()), verdict + " [" + marks + "]"});
        }
        int[] widths = new int[HEADER.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(row[i]);
                if (i < row.length - 1) {
                    line.append(" ".repeat(widths[i] - row[i].length() + 2));
                }
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        b.append('\n');
        boolean oneSided = options.alternative() != Alternative.TWO_SIDED;
        b.append("p: ").append(oneSided ? "one-sided " : "").append("Welch t-test")
                .append(oneSided ? " (alternative: the true difference in means is " + options.alternative().phrase()
                        + " 0)" : "")
                .append(outcomes.size() > 1 ? ", Holm-adjusted across the metrics" : "")
                .append("; ± : the half-width of the mean's ").append(Display.level(options.confidenceLevel()))
                .append(" CI, in percent of the mean")
                .append("; Δ = 100·(mean(with) − mean(without))/|mean(without)| with Fieller's")
                .append(oneSided ? " two-sided" : "").append(" interval; α = ")
                .append(number(options.alpha())).append(", equivalence margin ±")
                .append(number(options.equivalenceMarginPercent()))
                .append("%\n");
        for (int i = 0; i < notes.size(); i++) {
            b.append('[').append(i + 1).append("] ").append(notes.get(i)).append('\n');
        }
        return b.toString();
    }

    private static String number(double v) {
        return io.perflab.stats.RFormat.format(v, 7).strip();
    }

    /** A side whose every run measured {@code value}: no interval, since nothing varied. */
    private static String constantSide(double value, int runs) {
        return Display.value(value) + (value == 0 ? " ± 0" : " ± 0%") + " (n=" + runs + ")";
    }

    private static String side(Summary s, ComparisonOptions options) {
        double half = s.meanHalfWidth(options.confidenceLevel());
        String spread = s.mean() == 0 ? "± " + Display.value(half)
                : String.format(java.util.Locale.ROOT, "± %.1f%%", 100 * half / Math.abs(s.mean()));
        return Display.value(s.mean()) + " " + spread + " (n=" + s.n() + ")";
    }
}
