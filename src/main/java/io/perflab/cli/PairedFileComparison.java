package io.perflab.cli;

import io.perflab.paired.PairedSamples;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.PairedAnalysis;
import io.perflab.stats.RelativeChange;
import io.perflab.stats.RobustPairedChange;
import io.perflab.stats.StatWarning;
import io.perflab.stats.TTestResult;
import io.perflab.stats.format.HtestPrinter;
import io.perflab.system.PrintableText;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code perflab compare} of the experiment files of a paired design (duet, alternating): pair i of WITHOUT's
 * baseline against pair i of WITH's change, the windows averaged within each pair ({@link PairedSummary}), as a
 * table, R's print-outs or JSON.
 */
final class PairedFileComparison {

    private PairedFileComparison() {
    }

    /**
     * The paired analysis of the windows of a paired design, in the chosen format; when no metric can be analysed,
     * why not, and {@link PerfLabCommand#EXIT_USAGE}.
     *
     * @param files the file, or the two files, for messages
     */
    static int compare(List<TrialResult> results, String files, CompareCommand.Format format,
                       ComparisonOptions options, PrintWriter out, PrintWriter err) {
        PairedSamples samples = PairedSamples.of(results);
        Map<String, String> notAnalysed = new LinkedHashMap<>();
        for (String metric : samples.metrics()) {
            try {
                PairedAnalysis.analyze(samples.windows(metric), options);
                notAnalysed.clear();
                break;
            } catch (IllegalArgumentException e) {
                notAnalysed.put(metric, e.getMessage());
            }
        }
        if (samples.pairs() == 0 || samples.metrics().isEmpty() || !notAnalysed.isEmpty()) {
            err.println(PrintableText.Validator.shown("perflab compare: " + files + ": no metric could be compared "
                    + "pair by pair: " + (samples.pairs() == 0 ? "no pair has a successful window of each variant"
                    : notAnalysed.isEmpty() ? "its windows hold no metric" : CompareCommand.reasons(notAnalysed))));
            return PerfLabCommand.EXIT_USAGE;
        }
        if (format == CompareCommand.Format.table) {
            out.print(PairedSummary.format(results, options));
            return 0;
        }
        List<Map<String, Object>> json = new ArrayList<>();
        for (String metric : samples.metrics()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("metric", metric);
            try {
                PairedAnalysis a = PairedAnalysis.analyze(samples.windows(metric), options);
                if (format == CompareCommand.Format.r) {
                    out.println("## " + metric + ": log(with/without) per pair, the mean over its windows");
                    out.print(HtestPrinter.tTest(a.logRatio(), "r", null));
                    continue;
                }
                m.put("pairs", a.pairs());
                m.put("windows", a.windows());
                m.put("changePercent", a.relativeChange().percent());
                m.put("ciLowPercent", a.relativeChange().ciLowPercent());
                m.put("ciHighPercent", a.relativeChange().ciHighPercent());
                m.put("pValue", a.logRatio().pValue());
                // null when every pair's difference is the same (a constant shift): the warnings say why
                TTestResult d = a.difference();
                m.put("difference", d == null ? null : d.difference());
                m.put("differenceCiLow", d == null ? null : d.ciLow());
                m.put("differenceCiHigh", d == null ? null : d.ciHigh());
                m.put("welchIgnoringPairingPValue", a.welchIgnoringPairing().pValue());
                RobustPairedChange robust = a.robust();
                RelativeChange change = robust.relativeChange();
                m.put("robustChangePercent", change.percent());
                // null when unbounded: too few pairs for the sign-flip test to reach the level
                m.put("robustCiLowPercent", Double.isFinite(change.ciLowPercent()) ? change.ciLowPercent() : null);
                m.put("robustCiHighPercent", Double.isFinite(change.ciHighPercent()) ? change.ciHighPercent() : null);
                m.put("robustPValue", robust.pValue());
                if (!a.warnings().isEmpty()) {
                    m.put("warnings", a.warnings().stream().map(StatWarning::message).toList());
                }
                a.varianceComponents().ifPresent(vc -> {
                    m.put("varianceBetweenPairs", vc.between());
                    m.put("varianceWithinPairs", vc.within());
                });
            } catch (IllegalArgumentException e) {
                if (format == CompareCommand.Format.r) {
                    out.println("## " + metric);
                    out.println("Error: " + e.getMessage());
                    continue;
                }
                m.put("error", e.getMessage());
            }
            json.add(m);
        }
        if (format == CompareCommand.Format.json) {
            out.println(JsonMapper.builder().build().writerWithDefaultPrettyPrinter().writeValueAsString(json));
        }
        return 0;
    }
}
