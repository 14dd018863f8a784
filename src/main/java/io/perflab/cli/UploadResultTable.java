package io.perflab.cli;

import io.perflab.stats.Display;
import io.perflab.system.PrintableText;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/** The text table {@code perflab upload} prints from an upload response. */
final class UploadResultTable {

    private UploadResultTable() {
    }

    /**
     * Prints the response's comparison and returns the metrics that regressed by more than
     * {@code thresholdPercent} (a regression without a percentage counts).
     */
    static List<String> print(JsonNode result, double thresholdPercent, PrintWriter out) {
        out.println("Uploaded experiment " + result.get("experimentId").asLong() + ": "
                + PrintableText.Validator.shown(result.get("url").asString()));
        String basis = result.path("comparedWith").asString("none");
        if ("base".equals(basis)) {
            out.println("Compared with upload " + result.get("baseExperimentId").asLong()
                    + (result.path("baseCommit").isString() ? " (commit "
                    + PrintableText.Validator.shown(result.get("baseCommit").asString()) + ")" : ""));
        } else if ("variants".equals(basis)) {
            out.println("Compared: with vs without");
        }
        for (JsonNode note : result.path("notes")) {
            out.println("Note: " + PrintableText.Validator.shown(note.asString()));
        }
        List<String> regressions = new ArrayList<>();
        List<String> within = new ArrayList<>();
        JsonNode comparison = result.path("comparison");
        if (comparison.isEmpty()) {
            return regressions;
        }
        out.println(String.format(Locale.ROOT, "%-40s %-8s %12s %12s %9s %21s %9s  %s", "metric", "unit", "without",
                "with", "Δ %", "95% CI of Δ %", "p (Holm)", "verdict"));
        for (JsonNode m : comparison) {
            String verdict = PrintableText.Validator.shown(m.path("verdict").asString(""));
            String metric = PrintableText.Validator.shown(m.get("metric").asString());
            Double percent = number(m.get("percent"));
            out.println(String.format(Locale.ROOT, "%-40s %-8s %12s %12s %9s %21s %9s  %s",
                    metric, PrintableText.Validator.shown(m.path("unit").asString("")), num(m.get("meanWithout")),
                    num(m.get("meanWith")), percent == null ? "–" : String.format(Locale.ROOT, "%+.2f", percent),
                    ci(m.get("ciLowPercent"), m.get("ciHighPercent")), pValue(m.get("holmPValue")), verdict));
            if ("regressed".equals(verdict) && (percent == null || Math.abs(percent) > thresholdPercent)) {
                regressions.add(metric);
            } else if ("regressed".equals(verdict)) {
                within.add(metric);
            }
        }
        if (!within.isEmpty()) {
            // the gate passes these: say so, and by what it measured them
            out.println("Regressed, but by no more than the threshold of " + String.format(Locale.ROOT, "%.2f",
                    thresholdPercent) + " % (the estimate Δ % is what is held to it, not its interval): "
                    + String.join(", ", within));
        }
        return regressions;
    }

    private static Double number(JsonNode node) {
        return node == null || !node.isNumber() ? null : node.doubleValue();
    }

    private static String num(JsonNode node) {
        Double value = number(node);
        return value == null ? "–" : String.format(Locale.ROOT, "%.4g", value);
    }

    /** As R's {@code format.pval} prints it, as the page and the reports do: {@code 0.05}, {@code < 2.2e-16}. */
    private static String pValue(JsonNode node) {
        Double value = number(node);
        return value == null ? "–" : Display.pValue(value).strip();
    }

    /** The interval of the change; a missing end is an unbounded one (Fieller's), as the page shows it. */
    private static String ci(JsonNode low, JsonNode high) {
        Double l = number(low);
        Double h = number(high);
        if (l == null && h == null) {
            return "–";
        }
        return "[" + (l == null ? "-inf" : String.format(Locale.ROOT, "%+.2f", l)) + ", "
                + (h == null ? "+inf" : String.format(Locale.ROOT, "%+.2f", h)) + "]";
    }
}
