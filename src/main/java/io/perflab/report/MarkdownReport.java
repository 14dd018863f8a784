package io.perflab.report;

import io.perflab.display.Format;
import io.perflab.experiment.ExperimentView;
import io.perflab.experiment.MethodNotes;
import io.perflab.experiment.MetricComparison;
import io.perflab.experiment.ResultsSummary;
import io.perflab.runner.experiment.VariantName;
import io.perflab.system.Texts;
import java.util.List;
import java.util.Map;

/**
 * The {@code .md} report: a compact results table for a pull request or review comment, with the description
 * quoted, the option diff, the notes said once and a one-line methodology note. User text is escaped so that it shows
 * literally (no HTML, no table breaks, no headings or lists). Like the HTML report it lists at most
 * {@value ExperimentReport#LISTED} metrics.
 */
final class MarkdownReport {

    private MarkdownReport() {
    }

    static String render(ExperimentReport report) {
        ExperimentView e = report.experiment();
        StringBuilder b = new StringBuilder();
        b.append("### PerfLab experiment ").append(e.id()).append(": ").append(TextSafety.markdown(e.name()))
                .append("\n\n");
        String description = TextSafety.markdownQuote(e.description());
        if (!description.isEmpty()) {
            b.append("Description:\n\n").append(description).append('\n');
        }
        b.append(e.status());
        if (report.paired()) {
            // the design's line counts the pairs stored and failed, the unit a paired design counts failures in
            b.append("\n\n").append(TextSafety.markdown(PairedText.design(e))).append("\n\n");
            PairedText.stop(e).forEach(line -> b.append("> ").append(TextSafety.markdown(line)).append("\n\n"));
        } else {
            b.append(" · ").append(e.progress().completedRuns()).append(" of ").append(e.progress().totalRuns())
                    .append(" runs");
            if (e.progress().failedRuns() > 0) {
                b.append(" (").append(e.progress().failedRuns()).append(" failed)");
            }
            b.append(" · ").append(e.plan().runsPerVariant()).append(" per variant, ")
                    .append(TextSafety.markdown(e.plan().order())).append("\n\n");
        }
        if (e.error() != null && !e.error().isBlank()) {
            b.append("Experiment error: ").append(TextSafety.markdown(e.error().strip())).append("\n\n");
        }
        for (String host : report.ranOn()) {
            b.append("Ran on ").append(TextSafety.markdown(host)).append("\n\n");
        }
        for (String warning : report.upload().warnings()) {
            b.append("> The benchmark tool's output says: ").append(TextSafety.markdown(warning)).append('\n');
        }
        if (!report.upload().warnings().isEmpty()) {
            b.append('\n');
        }
        if (!e.optionDiff().isEmpty()) {
            b.append("| setting | without | with |\n|---|---|---|\n");
            for (Map.Entry<String, Map<String, String>> d : e.optionDiff().entrySet()) {
                b.append("| ").append(TextSafety.markdown(d.getKey())).append(" | ")
                        .append(TextSafety.markdown(d.getValue().get(VariantName.WITHOUT.label()))).append(" | ")
                        .append(TextSafety.markdown(d.getValue().get(VariantName.WITH.label()))).append(" |\n");
            }
            b.append('\n');
        }
        if (report.listed().isEmpty()) {
            b.append("No results yet: ").append(report.noResults()).append(".\n\n");
        } else {
            table(b, report);
            if (report.paired()) {
                paired(b, report);
            }
            notes(b, report);
        }
        if (!report.failedPairs().isEmpty()) {
            b.append(report.failedPairs().size()).append(" failed pair")
                    .append(report.failedPairs().size() == 1 ? "" : "s").append(", left out of the analysis whole: ");
            b.append(String.join("; ", report.failedPairs().stream()
                    .map(p -> "pair " + p.index() + " (" + p.status() + ") "
                            + TextSafety.markdown(firstLine(p.error())))
                    .toList())).append("\n\n");
        }
        if (!report.failedRuns().isEmpty()) {
            b.append(report.failedRuns().size()).append(" failed run")
                    .append(report.failedRuns().size() == 1 ? "" : "s").append(": ");
            b.append(String.join("; ", report.failedRuns().stream()
                    .map(r -> "run " + r.ordinal() + " (" + r.variant() + ", " + r.status() + ") "
                            + TextSafety.markdown(firstLine(r.error())))
                    .toList())).append("\n\n");
        }
        b.append("Method: ").append(TextSafety.markdown(Methodology.oneLine(report.experiment())))
                .append(" PerfLab ").append(TextSafety.markdown(report.version())).append(".\n");
        return b.toString();
    }

    private static void table(StringBuilder b, ExperimentReport report) {
        b.append("| metric | without (mean) | with (mean) | Δ % | ").append(Methodology.level())
                .append(" CI of Δ % | p | Holm p | verdict |\n");
        b.append("|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (MetricComparison c : report.listed()) {
            b.append("| ").append(TextSafety.markdown(Format.metricWithUnit(c.key(), c.metric().unit())))
                    .append(" | ").append(Format.value(c.groups().meanWithout()))
                    .append(" | ").append(Format.value(c.groups().meanWith()))
                    .append(" | ").append(Format.percent(c.change().percent()))
                    .append(" | ").append(Format.percentInterval(c.change().ciLowPercent(), c.change().ciHighPercent()))
                    .append(" | ").append(Format.pValue(c.tests().pValue()))
                    .append(" | ").append(Format.pValue(c.tests().holmPValue()))
                    .append(" | ").append(verdict(c.verdict())).append(" |\n");
        }
        b.append('\n');
        if (report.metrics().partial()) {
            b.append("Listed: ").append(report.listed().size()).append(" of ")
                    .append(Format.count(report.metrics().total(), "metric", "metrics"))
                    .append(", headline metrics first; every sample (").append(TextSafety.markdown(MethodNotes.SAMPLES))
                    .append("): ").append(report.samplesUrl()).append("\n\n");
        }
    }

    /** A paired design's figures beside the verdicts, and its sequential looks. */
    private static void paired(StringBuilder b, ExperimentReport report) {
        b.append("Paired analysis:\n");
        PairedText.metrics(report.listed()).forEach(line -> b.append("- ").append(TextSafety.markdown(line))
                .append('\n'));
        b.append('\n');
        List<String> looks = PairedText.looks(report.experiment());
        if (!looks.isEmpty()) {
            b.append("Sequential looks:\n");
            looks.forEach(line -> b.append("- ").append(TextSafety.markdown(line)).append('\n'));
            b.append('\n');
        }
    }

    /** The notes several metrics share, once each, then each listed metric's own. */
    private static void notes(StringBuilder b, ExperimentReport report) {
        ResultsSummary summary = report.summary();
        StringBuilder notes = new StringBuilder();
        summary.notes().forEach(n -> notes.append("- ").append(TextSafety.markdown(summary.fullScope(n))).append(": ")
                .append(TextSafety.markdown(n.text())).append('\n'));
        for (MetricComparison c : report.listed()) {
            summary.ownNotes(c).forEach(n -> notes.append("- ").append(TextSafety.markdown(c.key())).append(": ")
                    .append(TextSafety.markdown(n)).append('\n'));
        }
        if (!notes.isEmpty()) {
            b.append("Warnings:\n").append(notes).append('\n');
        }
    }

    private static String verdict(String verdict) {
        return switch (verdict) {
            case "improved", "regressed" -> "**" + verdict + "**";
            default -> verdict;
        };
    }

    private static String firstLine(String error) {
        if (error == null || error.isBlank()) {
            return "no error recorded";
        }
        String first = error.strip().lines().findFirst().orElse("");
        return Texts.cut(first, 200);
    }
}
