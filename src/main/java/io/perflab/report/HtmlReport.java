package io.perflab.report;

import io.perflab.display.ScriptJson;
import io.perflab.experiment.ExperimentView;
import io.perflab.experiment.MethodNotes;
import io.perflab.experiment.MetricComparison;
import io.perflab.experiment.ResultCharts;
import io.perflab.experiment.RunEnvironment;
import io.perflab.experiment.RunRecord;
import io.perflab.experiment.VariantRecord;
import io.perflab.runner.experiment.VariantName;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.context.ApplicationContext;
import org.springframework.core.io.ClassPathResource;
import org.springframework.stereotype.Component;
import org.thymeleaf.TemplateEngine;
import org.thymeleaf.context.Context;
import org.thymeleaf.spring6.expression.ThymeleafEvaluationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code .html} report: one self-contained file rendered from {@code templates/report/experiment.html}, with
 * inline CSS, the experiment page's summary, results table and plots (the same fragments and the same SVG charts,
 * {@link ResultCharts}) and the plotted metrics' samples as JSON, so that it opens from disk without a single
 * request. The template prints every user string with {@code th:text} and every number through the {@code @fmt}
 * bean; the only markup inserted unescaped is the SVG (which escapes its own text) and the JSON
 * ({@link ScriptJson}).
 */
@Component
class HtmlReport {

    static final String TEMPLATE = "report/experiment";

    /** The dashboard's stylesheet, inlined: the report looks like the page it was exported from. */
    static final String STYLESHEET = "static/css/perflab.css";

    private final TemplateEngine templates;
    private final JsonMapper json;
    private final ThymeleafEvaluationContext beans;
    private final String stylesheet;

    HtmlReport(TemplateEngine templates, JsonMapper json, ApplicationContext application) throws IOException {
        this.templates = templates;
        this.json = json;
        this.beans = new ThymeleafEvaluationContext(application, null);
        this.stylesheet = new ClassPathResource(STYLESHEET).getContentAsString(StandardCharsets.UTF_8);
    }

    /** A label and its value. */
    record Entry(String label, String value) {
    }

    /** A variant's full settings. */
    record Variant(String name, List<Entry> options, String jvmArgs, String command) {
    }

    String render(ExperimentReport report) {
        ExperimentView e = report.experiment();
        Context context = new Context(Locale.ROOT);
        // lets the template and the shared fragments print through the @fmt bean, as the pages do
        context.setVariable(ThymeleafEvaluationContext.THYMELEAF_EVALUATION_CONTEXT_CONTEXT_VARIABLE_NAME, beans);
        context.setVariable("stylesheet", stylesheet);
        context.setVariable("e", e);
        context.setVariable("report", report);
        context.setVariable("rows", ResultCharts.rows(report.metrics(), report.summary(), report.runs(),
                ExperimentReport.PLOTTED));
        context.setVariable("forestPlot", ResultCharts.forest(report.plotted()));
        context.setVariable("rBlocks", rBlocks(report));
        context.setVariable("variants", variants(e));
        context.setVariable("plan", plan(e));
        context.setVariable("environment", environment(report));
        context.setVariable("alpha", Methodology.alpha());
        context.setVariable("margin", Methodology.margin());
        context.setVariable("samplesNote", MethodNotes.SAMPLES);
        // the metric the recipe to recompute a result in R names: the first the report embeds
        context.setVariable("recipeMetric", report.plotted().isEmpty() ? "cpu_us_per_req"
                : report.plotted().get(0).key());
        context.setVariable("samplesJson", samplesJson(report));
        return templates.process(TEMPLATE, context);
    }

    /** R's t-test print-out of each plotted metric, by key. */
    private static Map<String, String> rBlocks(ExperimentReport report) {
        Map<String, String> blocks = new LinkedHashMap<>();
        report.plotted().forEach(c -> blocks.put(c.key(), RBlocks.tTest(report, c.key()).stripLeading()));
        return blocks;
    }

    private static List<Variant> variants(ExperimentView e) {
        List<Variant> variants = new ArrayList<>();
        for (VariantName name : VariantName.values()) {
            VariantRecord v = e.variants().get(name.label());
            if (v != null) {
                variants.add(new Variant(name.label(), entries(new TreeMap<>(v.options())),
                        String.join(" ", v.jvmArgs()), v.command()));
            }
        }
        return variants;
    }

    private static List<Entry> plan(ExperimentView e) {
        List<Entry> plan = new ArrayList<>();
        plan.add(new Entry("design", e.design()));
        if (e.paired() != null) {
            plan.add(new Entry("pairs", Integer.toString(e.paired().pairs())));
            plan.add(new Entry("windows per pair", Integer.toString(e.paired().windowsPerPair())));
        } else {
            plan.add(new Entry("runs per variant", Integer.toString(e.plan().runsPerVariant())));
            plan.add(new Entry("order", e.plan().order()));
        }
        plan.add(new Entry("seed", Long.toString(e.plan().seed())));
        plan.add(new Entry("trial timeout", e.plan().trialTimeoutSeconds() + " s"));
        plan.add(new Entry("failures allowed", Integer.toString(e.plan().maxFailures())));
        if (e.paired() != null) {
            // the unit a paired design counts its failures in, as the list of failed pairs does
            plan.add(new Entry("pairs stored", e.paired().completedPairs() + " of " + e.paired().pairs() + " ("
                    + e.paired().failedPairs() + " failed)"));
        } else {
            plan.add(new Entry("runs stored", e.progress().completedRuns() + " of " + e.progress().totalRuns()
                    + " (" + e.progress().failedRuns() + " failed)"));
        }
        return plan;
    }

    /**
     * What the embedded samples' results are, in R's terms: of the fresh design Welch's test of the two variants'
     * values; of a paired design the one-sample t-test of the pairs' mean log ratios, over the OK runs' windows.
     */
    static String convention(ExperimentReport report) {
        if (!report.paired()) {
            return "difference = mean(with) - mean(without); R: t.test(with, without)";
        }
        return "paired design: the pair is the unit of replication. Per pair, r = the mean over its windows measured"
                + " by both variants (OK runs, matched by pair and window) of log(with/without); R: t.test(r), and"
                + " the change is 100*(exp(mean) - 1) % with its interval transformed alike. The metrics' with and"
                + " without lists are every OK window, not independent samples: t.test(with, without) of them"
                + " matches no result of the report";
    }

    /** The runs' environment, each entry as the experiment page describes it ({@link RunEnvironment#describe}). */
    private static List<Entry> environment(ExperimentReport report) {
        List<Entry> entries = new ArrayList<>();
        report.environment().forEach((key, values) -> entries.add(new Entry(key, RunEnvironment.describe(values))));
        return entries;
    }

    private static List<Entry> entries(Map<String, String> map) {
        List<Entry> entries = new ArrayList<>();
        map.forEach((k, v) -> entries.add(new Entry(k, v)));
        return entries;
    }

    /**
     * The samples of the plotted metrics as JSON for anyone to recompute: per metric the two variants' values in
     * plan order (what the tests used), and every run with its status and those metrics' values; where the report
     * leaves metrics out, how many and where all samples are.
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
        root.put("convention", convention(report));
        if (report.partial()) {
            root.put("metricsIncluded", report.plotted().size());
            root.put("metricsTotal", report.metrics().total());
            root.put("allSamples", report.samplesUrl());
        }
        Map<String, Object> metrics = new LinkedHashMap<>();
        for (MetricComparison c : report.plotted()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("unit", c.metric().unit());
            m.put("better", c.metric().direction());
            for (VariantName variant : VariantName.values()) {
                m.put(variant.label(), report.values(c.key(), variant));
            }
            metrics.put(c.key(), m);
        }
        root.put("metrics", metrics);
        List<Map<String, Object>> runs = new ArrayList<>();
        for (RunRecord r : report.runs()) {
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("ordinal", r.ordinal());
            run.put("variant", r.variant());
            run.put("status", r.status());
            if (r.pair() != null) {
                run.put("pair", r.pair().index());
                run.put("window", r.pair().window());
            }
            run.put("metrics", new TreeMap<>(r.metrics()));
            runs.add(run);
        }
        root.put("runs", runs);
        return ScriptJson.write(json, root);
    }
}
