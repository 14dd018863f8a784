package io.perflab.report;

import io.perflab.display.Format;
import io.perflab.experiment.ExperimentView;
import io.perflab.experiment.MetricComparison;
import io.perflab.experiment.SequentialLookRepository;
import java.util.ArrayList;
import java.util.List;

/**
 * What the Markdown and text reports say of a paired design, as plain sentences (each report escapes them its
 * way): the design and its pairs, why it stopped, each listed metric's paired change with Welch's test beside it
 * labelled as ignoring the pairing (of a target of the stopping rule, the last look's repeated interval, with the
 * t-test beside it labelled as ignoring the looks), its variance components and the windows per pair for the next
 * run, and the sequential looks.
 */
final class PairedText {

    private PairedText() {
    }

    /** The design and how far it got, e.g. {@code Design: duet, 12 of 20 pairs of 3 windows per variant stored}. */
    static String design(ExperimentView e) {
        ExperimentView.Paired p = e.paired();
        return "Design: " + e.design() + ", " + p.completedPairs() + " of " + p.pairs() + " pairs of "
                + Format.count(p.windowsPerPair(), "window", "windows") + " per variant stored"
                + (p.failedPairs() > 0 ? " (" + p.failedPairs() + " failed)" : "")
                + (p.targets().isEmpty() ? "" : "; targets " + String.join(", ", p.targets()))
                + (p.budgetSeconds() == null ? "" : "; budget " + p.budgetSeconds() + " s")
                + ". The pair is the unit of replication: per pair the mean over its windows of log(with/without), "
                + "the t interval over the pairs gives the change."
                + (p.placement() == null || p.placement().pairs() == 0 ? "" : " " + p.placement().describe());
    }

    /**
     * Why the experiment's stopping rule stopped it, if it did: before its last planned pair, or at it (the last look
     * of its plan), which the reason says.
     */
    static List<String> stop(ExperimentView e) {
        String reason = e.paired().stopReason();
        return reason == null ? List.of() : List.of("Stopped by its stopping rule: " + reason);
    }

    /** One sentence per metric of {@code listed} with paired figures. */
    static List<String> metrics(List<MetricComparison> listed) {
        List<String> lines = new ArrayList<>();
        for (MetricComparison c : listed) {
            MetricComparison.PairedFigures p = c.paired();
            if (p == null) {
                continue;
            }
            StringBuilder line = new StringBuilder(c.key()).append(": paired ")
                    .append(Format.percent(c.change().percent())).append(' ')
                    .append(Format.percentInterval(c.change().ciLowPercent(), c.change().ciHighPercent()))
                    .append(" over ").append(p.pairs()).append(" pairs");
            MetricComparison.Sequential q = p.sequential();
            if (q != null) {
                line.append(" (the repeated interval of the last of ").append(Format.count(q.looks(), "look", "looks"))
                        .append(", ").append(q.spending()).append("; ignoring the looks ")
                        .append(Format.percentInterval(q.ciLowPercentIgnoringLooks(), q.ciHighPercentIgnoringLooks()))
                        .append(", p = ").append(Format.pValue(q.pValueIgnoringLooks()));
                if (q.adjustedPercent() != null) {
                    line.append("; adjusted for stopping ").append(Format.percent(q.adjustedPercent())).append(' ')
                            .append(Format.percentInterval(q.adjustedCiLowPercent(), q.adjustedCiHighPercent()))
                            .append(", median-unbiased");
                }
                line.append(')');
            }
            line.append("; Welch, ignoring the pairing: with − without ")
                    .append(Format.value(p.welchDifferenceIgnoringPairing())).append(' ')
                    .append(Format.interval(p.welchCiLowIgnoringPairing(), p.welchCiHighIgnoringPairing()))
                    .append(unit(c.metric().unit())).append(", p = ")
                    .append(Format.pValue(p.welchPValueIgnoringPairing()));
            MetricComparison.Robust h = p.robust();
            if (h != null) {
                line.append("; robust (Huber's score, pairs' signs flipped) ").append(Format.percent(h.percent()))
                        .append(' ').append(Format.percentInterval(h.ciLowPercent(), h.ciHighPercent()))
                        .append(", p = ").append(Format.pValue(h.pValue()))
                        .append(h.exact() ? "" : " (random sign patterns)");
            }
            if (c.sensitivity().mdePercent() != null) {
                line.append("; detects ").append(Format.detectable(c.sensitivity().mdePercent()))
                        .append(" with 80% power, ").append(Format.runs(c.sensitivity().runsPerVariantFor1Percent()))
                        .append(" pairs for ±1%");
            }
            if (p.betweenPairsSdPercent() != null) {
                line.append("; sd between pairs ").append(Format.value(p.betweenPairsSdPercent()))
                        .append("%, within a pair ").append(Format.value(p.withinPairSdPercent())).append('%');
            }
            MetricComparison.NextRun n = p.nextRun();
            if (n != null) {
                line.append("; in this run's time next: ").append(Format.nextRun(n.windowsPerPair(), n.pairs(),
                        n.mdePercent(), n.thisWindowsPerPair(), n.thisDesignMdePercent(),
                        n.kaliberaJonesWindowsPerPair(), n.betweenPairsClamped()));
            }
            if (p.warmup() != null) {
                MetricComparison.Warmup w = p.warmup();
                line.append("; first to last window: with ").append(Format.percent(w.withPercent()))
                        .append(", without ").append(Format.percent(w.withoutPercent())).append(", difference ")
                        .append(Format.percent(w.differencePercent())).append(' ')
                        .append(Format.percentInterval(w.ciLowPercent(), w.ciHighPercent())).append(", Holm p = ")
                        .append(Format.pValue(w.holmPValue()));
            }
            lines.add(line.toString());
        }
        return lines;
    }

    /** " µs" after a figure in the metric's unit; nothing for a metric without one. */
    private static String unit(String unit) {
        return unit == null || unit.isBlank() ? "" : " " + unit;
    }

    /** Each look of the stopping rule, as the command line prints it. */
    static List<String> looks(ExperimentView e) {
        return e.paired().looks().stream().map(SequentialLookRepository.LookRecord::description).toList();
    }
}
