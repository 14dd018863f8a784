package io.perflab.report;

import io.perflab.display.Format;
import io.perflab.experiment.ExperimentView;
import io.perflab.experiment.MethodNotes;
import io.perflab.experiment.MetricComparison;
import io.perflab.experiment.ResultsSummary;
import io.perflab.runner.experiment.VariantName;
import java.util.List;
import java.util.Map;

/**
 * The {@code .txt} report: R's {@code t.test} print-outs, one per metric, each headed by the metric's name, unit
 * and verdict — the blocks engineers paste into a commit message, as in the seed change. Notes several metrics
 * share are said once at the top. The experiment's description is a labelled block under the title, each of its
 * lines an indented R comment. Like the HTML report it prints R's blocks for at most
 * {@value ExperimentReport#PLOTTED} metrics and headings for at most {@value ExperimentReport#LISTED}.
 */
final class TextReport {

    private TextReport() {
    }

    static String render(ExperimentReport report) {
        ExperimentView e = report.experiment();
        StringBuilder b = new StringBuilder();
        b.append("PerfLab experiment ").append(e.id()).append(": ").append(TextSafety.line(e.name())).append('\n');
        List<String> description = TextSafety.lines(e.description());
        if (!description.isEmpty()) {
            // set apart from the report's own lines, each as an R comment: "Status: …" or "t = 5.2, p-value = 0.001"
            // written there reads as no result
            b.append("Description:\n");
            description.forEach(line -> b.append("  #").append(line.isEmpty() ? "" : " " + line).append('\n'));
        }
        if (report.paired()) {
            b.append("Status: ").append(e.status()).append('\n').append(PairedText.design(e)).append('\n');
            PairedText.stop(e).forEach(line -> b.append(TextSafety.line(line)).append('\n'));
        } else {
            b.append("Status: ").append(e.status()).append(", ").append(e.progress().completedRuns()).append(" of ")
                    .append(e.progress().totalRuns()).append(" runs (").append(e.progress().failedRuns())
                    .append(" failed), ").append(e.plan().runsPerVariant()).append(" per variant, ")
                    .append(TextSafety.line(e.plan().order())).append(" order\n");
        }
        if (e.error() != null && !e.error().isBlank()) {
            b.append("Experiment error: ").append(TextSafety.block(e.error()).strip().replace("\n", "\n  "))
                    .append('\n');
        }
        for (String host : report.ranOn()) {
            b.append("Ran on: ").append(TextSafety.line(host)).append('\n');
        }
        if (!e.optionDiff().isEmpty()) {
            b.append("Change (without -> with):\n");
            for (Map.Entry<String, Map<String, String>> d : e.optionDiff().entrySet()) {
                b.append("  ").append(TextSafety.line(d.getKey())).append(": ")
                        .append(TextSafety.line(d.getValue().get(VariantName.WITHOUT.label()))).append(" -> ")
                        .append(TextSafety.line(d.getValue().get(VariantName.WITH.label()))).append('\n');
            }
        }
        b.append(Methodology.oneLine(report.experiment())).append('\n');
        b.append("Generated ").append(report.generatedAt()).append(" by PerfLab ").append(report.version())
                .append(".\n");
        report.upload().warnings().forEach(w -> b.append("The benchmark tool's output says: ")
                .append(TextSafety.line(w)).append('\n'));
        ResultsSummary summary = report.summary();
        summary.notes().forEach(n -> b.append("warning (").append(TextSafety.line(summary.fullScope(n)))
                .append("): ")
                .append(TextSafety.line(n.text())).append('\n'));
        if (report.listed().isEmpty()) {
            b.append("\nNo results yet: ").append(report.noResults()).append(".\n");
        }
        int printed = 0;
        for (MetricComparison c : report.listed()) {
            b.append('\n').append(heading(c)).append('\n');
            if (printed++ < report.plotted().size()) {
                b.append(RBlocks.tTest(report, c.key()));
            }
            summary.ownNotes(c).forEach(n -> b.append("warning: ").append(TextSafety.line(n)).append('\n'));
        }
        List<String> pairedLines = report.paired() ? PairedText.metrics(report.listed()) : List.of();
        if (!pairedLines.isEmpty()) {
            b.append("\nPaired analysis (R: t.test(with, without, paired = TRUE) of the pairs' window means above):\n");
            pairedLines.forEach(line -> b.append("  ").append(TextSafety.line(line)).append('\n'));
        }
        if (report.paired()) {
            List<String> looks = PairedText.looks(e);
            if (!looks.isEmpty()) {
                b.append(pairedLines.isEmpty() ? "\nSequential looks:\n" : "Sequential looks:\n");
                looks.forEach(line -> b.append("  ").append(TextSafety.line(line)).append('\n'));
            }
        }
        if (report.partial()) {
            b.append("\nR's print-out for ").append(report.plotted().size()).append(" and headings for ")
                    .append(report.listed().size()).append(" of ")
                    .append(Format.count(report.metrics().total(), "metric", "metrics"))
                    .append("; every sample (").append(MethodNotes.SAMPLES).append("): ").append(report.samplesUrl())
                    .append('\n');
        }
        if (!report.failedPairs().isEmpty()) {
            b.append("\nFailed pairs (each left out of the analysis whole):\n");
            report.failedPairs().forEach(p -> b.append("  pair ").append(p.index()).append(" (").append(p.status())
                    .append("): ").append(TextSafety.block(p.error() == null ? "no error recorded" : p.error())
                            .strip().replace("\n", "\n    "))
                    .append('\n'));
        }
        if (!report.failedRuns().isEmpty()) {
            b.append("\nFailed runs:\n");
            report.failedRuns().forEach(r -> b.append("  run ").append(r.ordinal()).append(" (").append(r.variant())
                    .append(", ").append(r.status()).append("): ")
                    .append(TextSafety.block(r.error() == null ? "no error recorded" : r.error()).strip()
                            .replace("\n", "\n    "))
                    .append('\n'));
        }
        return b.toString();
    }

    /** {@code user_cpu_us_per_req (us) — improved: -6.48%, 95% CI [-8.56%, -4.39%], Holm p = 3.1e-07:} */
    static String heading(MetricComparison c) {
        StringBuilder h = new StringBuilder(TextSafety.line(Format.metricWithUnit(c.key(), c.metric().unit())));
        h.append(" — ").append(c.verdict());
        if (c.change().percent() != null) {
            h.append(": ").append(Format.percent(c.change().percent())).append(", ").append(Methodology.level())
                    .append(" CI ")
                    .append(Format.percentInterval(c.change().ciLowPercent(), c.change().ciHighPercent()));
        }
        if (c.tests().holmPValue() != null) {
            h.append(", Holm p = ").append(Format.pValue(c.tests().holmPValue()));
        }
        return h.append(':').toString();
    }
}
