package io.perflab.report;

import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Display;
import io.perflab.stats.RFormat;

/** How the report's numbers were obtained, in words, from the options the results were computed with. */
final class Methodology {

    static final String RUSAGE_NOTE = "per-request figures from getrusage(RUSAGE_SELF) cover the whole process, "
            + "client and server, less the JIT compiler threads";

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

    /** One sentence for the Markdown and text reports of a paired design, or of the fresh one. */
    static String oneLine(int metrics, boolean paired) {
        if (!paired) {
            return oneLine(metrics);
        }
        return "Paired design: per pair the mean over its windows of log(with/without); one-sample t-tests of the "
                + "pair log ratios, α = " + alpha() + ", Holm-adjusted across the experiment's " + metrics + " metric"
                + (metrics == 1 ? "" : "s") + "; " + level() + " CI of Δ % = 100·(e^mean − 1); unchanged = the CI "
                + "within ±" + margin() + "; windows of one pair are never counted as independent samples; "
                + RUSAGE_NOTE + ".";
    }

    /** One sentence for the Markdown and text reports. */
    static String oneLine(int metrics) {
        return "Welch two-sided t-tests of with against without (R: t.test(with, without)), α = " + alpha()
                + ", Holm-adjusted across the experiment's " + metrics + " metric" + (metrics == 1 ? "" : "s")
                + "; " + level() + " CI of Δ % by Fieller; unchanged = TOST within ±" + margin() + "; "
                + RUSAGE_NOTE + ".";
    }
}
