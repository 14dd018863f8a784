package io.perflab.report;

import io.perflab.experiment.ExperimentView;
import io.perflab.experiment.MetricComparison;
import io.perflab.experiment.RunRecord;
import io.perflab.experiment.VariantRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.stereotype.Component;
import org.thymeleaf.TemplateEngine;
import org.thymeleaf.context.Context;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code .html} report: one self-contained file rendered from {@code templates/report/experiment.html}, with
 * inline CSS, charts as inline SVG ({@link SvgCharts}) and the raw samples as JSON, so that it opens from disk
 * without a single request. The template prints every user string with {@code th:text}; the only markup inserted
 * unescaped is the SVG (which escapes its own text) and the JSON (whose {@code <} are written as {@code \u003c}).
 */
@Component
class HtmlReport {

    static final String TEMPLATE = "report/experiment";

    private final TemplateEngine templates;
    private final JsonMapper json;

    HtmlReport(TemplateEngine templates, JsonMapper json) {
        this.templates = templates;
        this.json = json;
    }

    /** A label and its value. */
    record Entry(String label, String value) {
    }

    /** An option whose value differs between the variants. */
    record Diff(String option, String without, String with) {
    }

    /** A variant's full settings. */
    record Variant(String name, List<Entry> options, String jvmArgs, String command) {
    }

    /** One row of the results table, formatted, with its charts and R block. */
    record Row(String metric, String unit, String label, String description, String verdict, String reason,
               String nWithout, String nWith, String meanWithout, String meanWith, String sdWithout,
               String sdWith, String difference, String differenceCi, String percent, String percentCi,
               String t, String df, String p, String holmP, String mannWhitneyP, String mde,
               String runsFor1Percent, List<String> warnings, String error, String rBlock, String stripSvg,
               String runOrderSvg) {
    }

    /** A failed run with its error. */
    record Failure(int ordinal, String variant, String status, String started, String error) {
    }

    String render(ExperimentReport report) {
        ExperimentView e = report.experiment();
        Context context = new Context(Locale.ROOT);
        context.setVariable("e", e);
        context.setVariable("generatedAt", report.generatedAt().toString());
        context.setVariable("version", report.version());
        context.setVariable("created", text(e.createdAt()));
        context.setVariable("started", text(e.startedAt()));
        context.setVariable("finished", text(e.finishedAt()));
        context.setVariable("headline", rows(report, report.headline(), false));
        context.setVariable("rows", rows(report, report.results(), true));
        context.setVariable("diff", diff(e));
        context.setVariable("variants", variants(e));
        context.setVariable("workload", entries(e.workload()));
        context.setVariable("plan", plan(e));
        context.setVariable("environment", environment(report));
        context.setVariable("forestSvg", forest(report));
        context.setVariable("failures", failures(report));
        context.setVariable("alpha", Methodology.alpha());
        context.setVariable("level", Methodology.level());
        context.setVariable("margin", Methodology.margin());
        context.setVariable("rusageNote", Methodology.RUSAGE_NOTE);
        context.setVariable("samplesJson", samplesJson(report));
        return templates.process(TEMPLATE, context);
    }

    private static List<Row> rows(ExperimentReport report, List<MetricComparison> comparisons, boolean charts) {
        List<Row> rows = new ArrayList<>();
        int index = 0;
        for (MetricComparison c : comparisons) {
            index++;
            String strip = null;
            String runOrder = null;
            String rBlock = null;
            if (charts) {
                strip = SvgCharts.stripBox("strip-" + index, c.key(), c.metric().unit(),
                        report.values(c.key(), ExperimentReport.WITHOUT),
                        report.values(c.key(), ExperimentReport.WITH));
                runOrder = SvgCharts.runOrder("order-" + index, c.key(), c.metric().unit(), runPoints(report, c.key()));
                rBlock = RBlocks.tTest(report, c.key()).stripLeading();
            }
            rows.add(new Row(c.key(), c.metric().unit(), ReportFormat.metricWithUnit(c.key(), c.metric().unit()),
                    c.metric().description(), c.verdict(), c.reason(), Integer.toString(c.groups().nWithout()),
                    Integer.toString(c.groups().nWith()), ReportFormat.value(c.groups().meanWithout()),
                    ReportFormat.value(c.groups().meanWith()), ReportFormat.value(c.groups().sdWithout()),
                    ReportFormat.value(c.groups().sdWith()), ReportFormat.value(c.change().difference()),
                    ReportFormat.interval(c.change().differenceCiLow(), c.change().differenceCiHigh()), ReportFormat.percent(c.change().percent()),
                    ReportFormat.percentInterval(c.change().ciLowPercent(), c.change().ciHighPercent()), ReportFormat.statistic(c.tests().t()),
                    ReportFormat.statistic(c.tests().df()), ReportFormat.pValue(c.tests().pValue()),
                    ReportFormat.pValue(c.tests().holmPValue()), ReportFormat.pValue(c.tests().mannWhitneyPValue()),
                    c.sensitivity().mdePercent() == null ? ReportFormat.MISSING : "±" + ReportFormat.value(Math.abs(c.sensitivity().mdePercent())) + "%",
                    ReportFormat.count(c.sensitivity().runsPerVariantFor1Percent()), c.warnings(), c.error(), rBlock, strip,
                    runOrder));
        }
        return rows;
    }

    private static List<SvgCharts.RunPoint> runPoints(ExperimentReport report, String metric) {
        return report.runs().stream()
                .filter(r -> r.ok() && r.metrics().containsKey(metric))
                .map(r -> new SvgCharts.RunPoint(r.ordinal(), r.variant(), r.metrics().get(metric)))
                .toList();
    }

    private static String forest(ExperimentReport report) {
        if (report.results().isEmpty()) {
            return null;
        }
        List<SvgCharts.ForestRow> rows = report.results().stream()
                .map(c -> new SvgCharts.ForestRow(c.key(), c.change().percent(), c.change().ciLowPercent(), c.change().ciHighPercent(),
                        c.verdict()))
                .toList();
        return SvgCharts.forest("forest", rows, Methodology.options().equivalenceMarginPercent(), Methodology.level());
    }

    private static List<Diff> diff(ExperimentView e) {
        List<Diff> diff = new ArrayList<>();
        e.optionDiff().forEach((option, pair) -> diff.add(new Diff(option, pair.get(ExperimentReport.WITHOUT),
                pair.get(ExperimentReport.WITH))));
        return diff;
    }

    private static List<Variant> variants(ExperimentView e) {
        List<Variant> variants = new ArrayList<>();
        for (String name : List.of(ExperimentReport.WITHOUT, ExperimentReport.WITH)) {
            VariantRecord v = e.variants().get(name);
            if (v != null) {
                variants.add(new Variant(name, entries(new TreeMap<>(v.options())), String.join(" ", v.jvmArgs()),
                        v.command()));
            }
        }
        return variants;
    }

    private static List<Entry> plan(ExperimentView e) {
        List<Entry> plan = new ArrayList<>();
        plan.add(new Entry("runs per variant", Integer.toString(e.plan().runsPerVariant())));
        plan.add(new Entry("order", e.plan().order()));
        plan.add(new Entry("seed", Long.toString(e.plan().seed())));
        plan.add(new Entry("trial timeout", e.plan().trialTimeoutSeconds() + " s"));
        plan.add(new Entry("failures allowed", Integer.toString(e.plan().maxFailures())));
        plan.add(new Entry("runs stored", e.progress().completedRuns() + " of " + e.progress().totalRuns() + " ("
                + e.progress().failedRuns() + " failed)"));
        return plan;
    }

    /** Entries with one value as they are; entries that vary across runs with their range or distinct values. */
    private static List<Entry> environment(ExperimentReport report) {
        List<Entry> entries = new ArrayList<>();
        report.environment().forEach((key, values) -> entries.add(new Entry(key, describe(values))));
        return entries;
    }

    static String describe(List<String> values) {
        if (values.size() == 1) {
            return values.get(0);
        }
        double[] numbers = new double[values.size()];
        try {
            for (int i = 0; i < numbers.length; i++) {
                numbers[i] = Double.parseDouble(values.get(i));
            }
            double min = java.util.Arrays.stream(numbers).min().orElseThrow();
            double max = java.util.Arrays.stream(numbers).max().orElseThrow();
            return "varies per run: " + ReportFormat.value(min) + " to " + ReportFormat.value(max);
        } catch (NumberFormatException notNumeric) {
            List<String> shown = values.subList(0, Math.min(3, values.size()));
            return "varies per run: " + String.join(" · ", shown)
                    + (values.size() > shown.size() ? " … (" + values.size() + " distinct values)" : "");
        }
    }

    private static List<Failure> failures(ExperimentReport report) {
        return report.failedRuns().stream()
                .map(r -> new Failure(r.ordinal(), r.variant(), r.status(), text(r.startedAt()),
                        r.error() == null ? "no error recorded" : r.error()))
                .toList();
    }

    private static List<Entry> entries(Map<String, String> map) {
        List<Entry> entries = new ArrayList<>();
        map.forEach((k, v) -> entries.add(new Entry(k, v)));
        return entries;
    }

    private static String text(Instant instant) {
        return instant == null ? ReportFormat.MISSING : instant.toString();
    }

    /**
     * The samples as JSON for anyone to recompute: per metric the two variants' values in plan order (what the
     * tests used), and every run with its status and metrics. Every {@code <} is written as {@code \u003c}, so no
     * name can close the script element or open a comment in it.
     */
    String samplesJson(ExperimentReport report) {
        ExperimentView e = report.experiment();
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", "perflab-samples/1");
        Map<String, Object> experiment = new LinkedHashMap<>();
        experiment.put("id", e.id());
        experiment.put("name", e.name());
        experiment.put("status", e.status());
        root.put("experiment", experiment);
        root.put("convention", "difference = mean(with) - mean(without); R: t.test(with, without)");
        Map<String, Object> metrics = new LinkedHashMap<>();
        for (MetricComparison c : report.results()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("unit", c.metric().unit());
            m.put("better", c.metric().direction());
            m.put(ExperimentReport.WITHOUT, report.values(c.key(), ExperimentReport.WITHOUT));
            m.put(ExperimentReport.WITH, report.values(c.key(), ExperimentReport.WITH));
            metrics.put(c.key(), m);
        }
        root.put("metrics", metrics);
        List<Map<String, Object>> runs = new ArrayList<>();
        for (RunRecord r : report.runs()) {
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("ordinal", r.ordinal());
            run.put("variant", r.variant());
            run.put("status", r.status());
            run.put("metrics", new TreeMap<>(r.metrics()));
            runs.add(run);
        }
        root.put("runs", runs);
        return json.writeValueAsString(root).replace("<", "\\u003c");
    }
}
