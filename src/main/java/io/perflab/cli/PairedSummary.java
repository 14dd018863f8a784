package io.perflab.cli;

import io.perflab.display.Format;
import io.perflab.paired.HostProbeCheck;
import io.perflab.paired.NextRunPlan;
import io.perflab.paired.PairedSamples;
import io.perflab.paired.WarmupCheck;
import io.perflab.runner.experiment.PairCosts;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.ConstantChange;
import io.perflab.stats.Direction;
import io.perflab.stats.Display;
import io.perflab.stats.PairedAnalysis;
import io.perflab.stats.Power;
import io.perflab.stats.RFormat;
import io.perflab.stats.RelativeChange;
import io.perflab.stats.RobustPairedChange;
import io.perflab.stats.StatWarning;
import io.perflab.stats.TTestResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The end of a paired {@code perflab ab} and {@code perflab compare} of a paired experiment file: per metric the
 * relative change with its interval over the pairs ({@link PairedAnalysis}), the difference in the metric's units,
 * and Welch's test of the same pair means labelled as ignoring the pairing; then the variance components and
 * the windows per pair for the next run ({@link NextRunPlan}), where the pairs' costs are known.
 */
final class PairedSummary {

    private static final String ROW = "%-32s %11s %11s %9s %-22s %-30s %9s %9s%n";

    private PairedSummary() {
    }

    static String format(List<TrialResult> results, ComparisonOptions options) {
        PairedSamples samples = PairedSamples.of(results);
        if (samples.pairs() == 0) {
            return "No pair with a successful window: nothing to compare.\n";
        }
        int windows = samples.windowsPerPair();
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "Paired analysis: %d pairs of up to %d "
                + "window%s of each variant. Per pair the mean over its windows of log(with/without); the t interval "
                + "over the pairs gives the change. Windows of one pair are never counted as independent samples.%n%n",
                samples.pairs(), windows, windows == 1 ? "" : "s"));
        String level = Display.level(options.confidenceLevel());
        s.append(String.format(Locale.ROOT, ROW, "metric", "without", "with", "change", level + " CI",
                "difference [" + level + " CI]", "p", "Welch p*"));
        Map<String, PairedAnalysis> analyses = new LinkedHashMap<>();
        Map<StatWarning.Kind, Set<String>> notes = new LinkedHashMap<>();
        Map<StatWarning.Kind, String> firstNote = new LinkedHashMap<>();
        for (String metric : samples.metrics()) {
            PairedAnalysis a;
            try {
                a = PairedAnalysis.analyze(samples.windows(metric), options);
            } catch (IllegalArgumentException e) {
                // the verdict's direction is the page's to give; the exact change needs none
                Optional<ConstantChange> exact = samples.constantChange(metric, Direction.LOWER_IS_BETTER);
                s.append(String.format(Locale.ROOT, "%-32s %s%n", metric,
                        exact.map(c -> c.measured("window") + " (no test is needed, as the values do not vary)")
                                .orElse("not analysed: " + e.getMessage())));
                continue;
            }
            analyses.put(metric, a);
            TTestResult d = a.difference();
            s.append(String.format(Locale.ROOT, ROW, metric,
                    Display.value(samples.mean(metric, VariantName.WITHOUT)).strip(),
                    Display.value(samples.mean(metric, VariantName.WITH)).strip(),
                    Display.percent(a.relativeChange().percent()),
                    Display.percentInterval(a.relativeChange().ciLowPercent(), a.relativeChange().ciHighPercent()),
                    // none when every pair's difference is the same (a constant shift): its warning says so
                    d == null ? "—" : signed(d.difference()) + " [" + signed(d.ciLow()) + ", " + signed(d.ciHigh())
                            + "]",
                    Display.pValue(a.logRatio().pValue()).strip(),
                    Display.pValue(a.welchIgnoringPairing().pValue()).strip()));
            for (StatWarning warning : a.warnings()) {
                notes.computeIfAbsent(warning.kind(), k -> new LinkedHashSet<>()).add(metric);
                firstNote.putIfAbsent(warning.kind(), warning.kind() == StatWarning.Kind.NEGATIVE_VARIANCE_COMPONENT
                        ? "the between-pairs variance estimate is negative, reported as 0: the pairs differ no more "
                        + "than their windows do" : warning.message());
            }
        }
        s.append("p: one-sample t-test of the pair log ratios (R: t.test(r)); * Welch's test of the same pairs' window "
                + "means as two independent groups, ignoring the pairing. Not Holm-adjusted.\n");
        notes.forEach((kind, metrics) -> s.append("note: ").append(firstNote.get(kind))
                .append(metrics.size() == analyses.size() ? "" : " (" + String.join(", ", metrics) + ")")
                .append('\n'));
        PairedAnalysis probe = analyses.get(MetricKeys.HOST_PROBE_NS);
        if (probe != null) {
            s.append(hostNote(probe, options));
        }
        s.append(warmup(samples, new ArrayList<>(analyses.keySet()), options));
        s.append(robust(analyses, options));
        s.append(sensitivity(analyses, windows, options));
        s.append(components(analyses, PairCosts.of(results, windows), windows, options));
        return s.toString();
    }

    /**
     * The robust check of each metric ({@link io.perflab.stats.RobustPairedChange}): the change by Huber's score of
     * the windows' log ratios, with the interval and p of its test, which flips the signs of whole pairs.
     */
    static String robust(Map<String, PairedAnalysis> analyses, ComparisonOptions options) {
        if (analyses.isEmpty()) {
            return "";
        }
        String level = Display.level(options.confidenceLevel());
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%nRobust check: Huber's score of the windows' "
                + "log ratios, tested by flipping the signs of whole pairs, so that a few windows far off weigh no "
                + "more than windows a little off:%n%-32s %9s %22s %10s%n", "metric", "change", level + " CI", "p"));
        boolean sampled = false;
        RobustPairedChange unbounded = null;
        for (Map.Entry<String, PairedAnalysis> e : analyses.entrySet()) {
            RobustPairedChange robust = e.getValue().robust();
            RelativeChange r = robust.relativeChange();
            s.append(String.format(Locale.ROOT, "%-32s %9s %22s %10s%n", e.getKey(), Display.percent(r.percent()),
                    Display.percentInterval(r.ciLowPercent(), r.ciHighPercent()),
                    Display.pValue(robust.pValue()).strip()));
            sampled |= !robust.exact();
            unbounded = unbounded != null || robust.bounded() ? unbounded : robust;
        }
        if (sampled) {
            s.append("(beyond " + RobustPairedChange.EXACT_MAX_PAIRS + " pairs p counts "
                    + RobustPairedChange.RANDOM_PATTERNS
                    + " random sign patterns of the pairs and the observed one)\n");
        }
        if (unbounded != null) {
            s.append("(with " + unbounded.pairs() + " pairs the least p is 2/2^" + unbounded.pairs()
                    + ": an interval at " + level + " can be unbounded)\n");
        }
        return s.toString();
    }

    /**
     * What the experiment could detect, per metric: the change its test finds with the options' power at this size
     * (the MDE), and the pairs of as many windows that would find the target effect ({@link PairedAnalysis#power}).
     */
    static String sensitivity(Map<String, PairedAnalysis> analyses, int windows, ComparisonOptions options) {
        if (analyses.isEmpty()) {
            return "";
        }
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%nSensitivity at α = %s with power %s: the "
                + "smallest change each test detects at this size (MDE), and the pairs of %d window%s that would "
                + "detect %s%%:%n%-32s %9s %12s%n", RFormat.format(options.alpha(), 7).strip(),
                RFormat.format(options.power(), 7).strip(), windows, windows == 1 ? "" : "s",
                RFormat.format(options.targetEffectPercent(), 7).strip(), "metric", "MDE", "pairs"));
        analyses.forEach((metric, a) -> {
            Power power = a.power();
            s.append(String.format(Locale.ROOT, "%-32s %9s %12s%n", metric,
                    Format.detectable(power.minimumDetectableEffectPercent()),
                    Format.runs(power.runsPerVariantForTarget())));
        });
        return s.toString();
    }

    /**
     * How each variant's JVMs moved from their first window to their last, per measured metric, and whether they
     * moved differently ({@link WarmupCheck}): the evidence that both were equally warmed up when measured.
     */
    static String warmup(PairedSamples samples, List<String> metrics, ComparisonOptions options) {
        Map<String, WarmupCheck.Judged> judged = WarmupCheck.judge(samples, metrics, options);
        if (judged.isEmpty()) {
            return "";
        }
        String row = "%-32s %9s %9s %-34s %9s%n";
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%nWarmup: each JVM's change from its first "
                + "window to its last (least squares over its windows). Window j of one variant is compared with "
                + "window j of the other, so a drift both share cancels; one that differs does not.%n" + row,
                "metric", "with", "without", "difference [" + Display.level(options.confidenceLevel()) + " CI]",
                "Holm p"));
        judged.forEach((metric, j) -> s.append(String.format(Locale.ROOT, row, metric,
                Display.percent(j.drift().withPercent()), Display.percent(j.drift().withoutPercent()),
                Display.percent(j.drift().relativeDifference().percent()) + " " + Display.percentInterval(
                        j.drift().relativeDifference().ciLowPercent(), j.drift().relativeDifference().ciHighPercent()),
                Display.pValue(j.adjustedP()).strip())));
        judged.forEach((metric, j) -> {
            String note = WarmupCheck.note(j, options.alpha());
            if (note != null) {
                s.append("note (").append(metric).append("): ").append(note).append(".\n");
            }
        });
        return s.toString();
    }

    /**
     * What {@code host_probe_ns} and the {@code _adj} metrics are, and whether the probe moved between the variants:
     * a change that slows the host's kernel for everyone slows the probe too, and the scaled figures would then
     * hide that part of its cost.
     */
    static String hostNote(PairedAnalysis probe, ComparisonOptions options) {
        boolean moved = HostProbeCheck.moved(probe, options.alpha());
        return "host: host_probe_ns is the host's speed in each window (the 25th percentile of the CPU time of "
                + "1,000 steps of the runner's probe loop); the _adj metrics are scaled to it. The probe "
                + (moved ? "moved" : "did not move") + " between the variants (" + HostProbeCheck.change(probe)
                + (moved ? "): the change under test slowed or sped up the probe itself, so the _adj figures may "
                + "misstate its effect; judge it by the raw ones.\n" : ").\n");
    }

    /**
     * The variance components of each metric and, with the costs, the windows per pair to use next time
     * ({@link NextRunPlan}).
     */
    private static String components(Map<String, PairedAnalysis> analyses, Optional<PairCosts> costs, int windows,
                                     ComparisonOptions options) {
        StringBuilder s = new StringBuilder();
        analyses.forEach((metric, a) -> a.varianceComponents().ifPresent(vc -> {
            String next = costs.flatMap(c -> NextRunPlan.of(a, c, windows, options))
                    .map(plan -> Format.nextRun(plan.next().windowsPerPair(), plan.next().pairs(),
                            plan.next().mdePercent(), windows, plan.thisDesignMdePercent(),
                            plan.kaliberaJonesOptimum(), plan.betweenClamped()))
                    .orElse("");
            s.append(String.format(Locale.ROOT, "%-32s %9s %9s   %s%n", metric, relativeSd(vc.between()),
                    relativeSd(vc.within()), next).stripTrailing()).append('\n');
        }));
        if (s.length() == 0) {
            return "";
        }
        String header = String.format(Locale.ROOT, "%nVariance components of log(with/without) as relative sd, "
                + "between pairs and between the windows of a pair%s:%n%-32s %9s %9s   %s%n",
                costs.map(c -> String.format(Locale.ROOT, "; and, a pair costing %.1f s before its windows and %.1f s "
                        + "per window, the windows per pair that in this run's time would detect the smallest change "
                        + "(with power %s, if the spreads stay as measured, scaled so that this run's design detects "
                        + "what its test does), beside Kalibera–Jones's m* (∞ when the pairs differ no more than their "
                        + "windows do)", c.pairSeconds(), c.windowSeconds(),
                        RFormat.format(options.power(), 7).strip())).orElse(""),
                "metric", "between", "within", costs.isPresent() ? "next: windows × pairs, MDE" : "").stripTrailing()
                + "\n";
        return header + s;
    }

    private static String relativeSd(double component) {
        return String.format(Locale.ROOT, "%.2f%%", 100 * Math.sqrt(component));
    }

    private static String signed(double v) {
        if (Double.isInfinite(v)) {
            return v > 0 ? "Inf" : "-Inf";
        }
        String text = Display.value(v).strip();
        return v > 0 ? "+" + text : text;
    }
}
