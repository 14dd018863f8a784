package io.perflab.report;

import io.perflab.experiment.ExperimentView;
import io.perflab.experiment.MetricComparison;
import java.util.List;
import java.util.Map;

/**
 * The {@code .md} report: a compact results table for a pull request or review comment, with the option diff
 * and a one-line methodology note. User text is escaped so that it shows literally (no HTML, no table breaks).
 */
final class MarkdownReport {

    private MarkdownReport() {
    }

    static String render(ExperimentReport report) {
        ExperimentView e = report.experiment();
        StringBuilder b = new StringBuilder();
        b.append("### PerfLab experiment ").append(e.id()).append(": ").append(TextSafety.markdown(e.name()))
                .append("\n\n");
        b.append(e.status()).append(" · ").append(e.progress().completedRuns()).append(" of ")
                .append(e.progress().totalRuns()).append(" runs");
        if (e.progress().failedRuns() > 0) {
            b.append(" (").append(e.progress().failedRuns()).append(" failed)");
        }
        b.append(" · ").append(e.plan().runsPerVariant()).append(" per variant, ")
                .append(TextSafety.markdown(e.plan().order())).append("\n\n");
        if (!e.optionDiff().isEmpty()) {
            b.append("| option | without | with |\n|---|---|---|\n");
            for (Map.Entry<String, Map<String, String>> d : e.optionDiff().entrySet()) {
                b.append("| ").append(TextSafety.markdown(d.getKey())).append(" | ")
                        .append(TextSafety.markdown(d.getValue().get(ExperimentReport.WITHOUT))).append(" | ")
                        .append(TextSafety.markdown(d.getValue().get(ExperimentReport.WITH))).append(" |\n");
            }
            b.append('\n');
        }
        if (report.results().isEmpty()) {
            b.append("No results yet: each variant needs at least two successful runs.\n\n");
        } else {
            b.append("| metric | without (mean) | with (mean) | Δ % | ").append(Methodology.level())
                    .append(" CI of Δ % | p | Holm p | verdict |\n");
            b.append("|---|---:|---:|---:|---:|---:|---:|---|\n");
            for (MetricComparison c : report.results()) {
                b.append("| ").append(TextSafety.markdown(ReportFormat.metricWithUnit(c.key(), c.metric().unit())))
                        .append(" | ").append(ReportFormat.value(c.groups().meanWithout()))
                        .append(" | ").append(ReportFormat.value(c.groups().meanWith()))
                        .append(" | ").append(ReportFormat.percent(c.change().percent()))
                        .append(" | ").append(ReportFormat.percentInterval(c.change().ciLowPercent(), c.change().ciHighPercent()))
                        .append(" | ").append(ReportFormat.pValue(c.tests().pValue()))
                        .append(" | ").append(ReportFormat.pValue(c.tests().holmPValue()))
                        .append(" | ").append(verdict(c.verdict())).append(" |\n");
            }
            b.append('\n');
            boolean any = false;
            for (MetricComparison c : report.results()) {
                for (String warning : warnings(c)) {
                    if (!any) {
                        b.append("Warnings:\n");
                        any = true;
                    }
                    b.append("- ").append(TextSafety.markdown(c.key())).append(": ")
                            .append(TextSafety.markdown(warning)).append('\n');
                }
            }
            if (any) {
                b.append('\n');
            }
        }
        if (!report.failedRuns().isEmpty()) {
            b.append(report.failedRuns().size()).append(" failed run")
                    .append(report.failedRuns().size() == 1 ? "" : "s").append(": ");
            b.append(String.join("; ", report.failedRuns().stream()
                    .map(r -> "run " + r.ordinal() + " (" + r.variant() + ", " + r.status() + ") "
                            + TextSafety.markdown(firstLine(r.error())))
                    .toList())).append("\n\n");
        }
        b.append("Method: ").append(TextSafety.markdown(Methodology.oneLine(report.results().size())))
                .append(" PerfLab ").append(TextSafety.markdown(report.version())).append(".\n");
        return b.toString();
    }

    private static List<String> warnings(MetricComparison c) {
        if (c.error() != null) {
            return List.of(c.error());
        }
        return c.warnings();
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
        return first.length() > 200 ? first.substring(0, 199) + "…" : first;
    }
}
