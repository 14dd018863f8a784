package io.perflab.report;

import io.perflab.experiment.ExperimentView;
import io.perflab.experiment.MethodNotes;
import io.perflab.experiment.MetricComparison;
import io.perflab.paired.HostProbeCheck;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Display;
import io.perflab.stats.RFormat;
import java.util.List;

/** How the report's numbers were obtained, in words, from the options the results were computed with. */
final class Methodology {

    private Methodology() {
    }

    static ComparisonOptions options() {
        return ComparisonOptions.defaults();
    }

    static String alpha() {
        return RFormat.format(options().alpha(), 7).strip();
    }

    static String level() {
        return Display.level(options().confidenceLevel());
    }

    static String margin() {
        return RFormat.format(options().equivalenceMarginPercent(), 7).strip() + "%";
    }

    /**
     * The method of experiment {@code e} for the Markdown and text reports, in a sentence on its analysis (of a
     * paired design, or of the fresh one) and one on its measurement ({@link MethodNotes#measurement}): Holm's family
     * is the metrics that were tested (not those that could not be compared, nor those whose every run measured
     * one value on each side, judged by their exact change), and in a paired design the host's speed and the
     * metrics scaled to it form a family of their own.
     */
    static String oneLine(ExperimentView e) {
        List<MetricComparison> all = e.results();
        boolean paired = e.paired() != null;
        // the family is the metrics tested: not those that could not be compared, nor those judged exactly
        List<MetricComparison> tested = all.stream().filter(c -> c.error() == null && c.tests().pValue() != null)
                .toList();
        long scaled = paired ? tested.stream().filter(c -> HostProbeCheck.isHostScaled(c.key())).count() : 0;
        long measured = tested.size() - scaled;
        String holm = "Holm-adjusted across the " + metrics(measured) + " compared" + (scaled == 0 ? ""
                : " (the host's speed and the metrics scaled to it, " + scaled + ", are a family of their own)");
        if (!paired) {
            return "Welch two-sided t-tests of with against without (R: t.test(with, without)), α = " + alpha()
                    + ", " + holm + "; " + level() + " CI of Δ % by Fieller; unchanged = TOST within ±" + margin()
                    + ". " + MethodNotes.measurement(e);
        }
        return "Paired design: per pair the mean over its windows of log(with/without); one-sample t-tests of the "
                + "pair log ratios, α = " + alpha() + ", " + holm + "; " + level() + " CI of Δ % = 100·(e^mean − 1); "
                + "unchanged = the CI within ±" + margin() + "; windows of one pair are never counted as independent "
                + "samples. " + MethodNotes.measurement(e);
    }

    private static String metrics(long n) {
        return n + " metric" + (n == 1 ? "" : "s");
    }
}
