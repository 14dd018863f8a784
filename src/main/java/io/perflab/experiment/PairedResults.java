package io.perflab.experiment;

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
import io.perflab.stats.Holm;
import io.perflab.stats.PairedAnalysis;
import io.perflab.stats.Power;
import io.perflab.stats.RFormat;
import io.perflab.stats.RelativeChange;
import io.perflab.stats.RobustPairedChange;
import io.perflab.stats.StatWarning;
import io.perflab.stats.TTestResult;
import io.perflab.stats.VarianceComponents;
import io.perflab.stats.Verdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The per-metric comparison of a paired experiment ({@code duet}, {@code alternating}): the pair is the unit of
 * replication, so each metric is judged by the one-sample t-test of the pairs' mean log ratios
 * ({@link PairedAnalysis}), never by counting a pair's windows as independent samples.
 *
 * <p>The verdict rule is the fresh design's on these figures: {@code improved}/{@code regressed} when the
 * Holm-adjusted p-value of the pair log ratios is below α, the sign of the mean log ratio and the metric's direction
 * telling which; {@code unchanged} when the whole interval of the change lies within ±margin (an interval inclusion
 * test, which is TOST at level α/2 — stricter than the fresh design's TOST, since the paired analysis has no TOST of
 * its own); otherwise {@code inconclusive}. Welch's test of the same pairs' window means is given beside it,
 * labelled as ignoring the pairing. Of a target of a sequential run's stopping rule, the interval and the verdict are
 * instead the rule's last look's ({@link SequentialVerdicts}).
 */
final class PairedResults {

    private PairedResults() {
    }

    /** Whether {@code runs} come from a paired design. */
    static boolean paired(List<RunRecord> runs) {
        return runs.stream().anyMatch(r -> r.pair() != null);
    }

    /** The comparison of each of {@code keys}, in their order, with Holm's adjustment across them. */
    static List<MetricComparison> compare(List<RunRecord> runs, List<String> keys,
                                          Map<String, MetricDefinition> definitions) {
        return compare(runs, keys, definitions, SequentialVerdicts.NONE);
    }

    /**
     * As {@link #compare(List, List, Map)} for a run whose length a stopping rule chose by its {@code looks}: of its
     * targets, the change's interval and the verdict are the last look's ({@link SequentialVerdicts}).
     */
    static List<MetricComparison> compare(List<RunRecord> runs, List<String> keys,
                                          Map<String, MetricDefinition> definitions, SequentialVerdicts looks) {
        List<TrialResult> results = runs.stream().map(RunRecord::toTrialResult).toList();
        PairedSamples samples = PairedSamples.of(results);
        Optional<PairCosts> costs = PairCosts.of(results, Math.max(1, samples.windowsPerPair()));
        ComparisonOptions options = ComparisonOptions.defaults();
        List<PairedAnalysis> analyses = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (String key : keys) {
            try {
                analyses.add(PairedAnalysis.analyze(samples.windows(key), options));
                errors.add(null);
            } catch (IllegalArgumentException e) {
                analyses.add(null);
                errors.add(e.getMessage());
            }
        }
        double[] adjusted = holmByFamily(keys, analyses);
        String probeNote = probeNote(keys, analyses, options);
        Map<String, WarmupCheck.Judged> warmup = WarmupCheck.judge(samples, keys, options);
        List<MetricComparison> comparisons = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            MetricDefinition definition = definitions.get(key);
            Direction direction = definition != null && definition.higherIsBetter() ? Direction.HIGHER_IS_BETTER
                    : Direction.LOWER_IS_BETTER;
            MetricComparison.Metric metric = ExperimentResults.metric(key, direction, definition);
            PairedAnalysis a = analyses.get(i);
            Double meanWithout = finite(samples.mean(key, VariantName.WITHOUT));
            Double meanWith = finite(samples.mean(key, VariantName.WITH));
            Optional<ConstantChange> constant = a == null ? samples.constantChange(key, direction) : Optional.empty();
            if (constant.isPresent()) {
                ConstantChange exact = constant.get();
                Double percent = exact.percent().orElse(null);
                comparisons.add(new MetricComparison(metric, new MetricComparison.Groups(
                        samples.pairsMeasuring(key, VariantName.WITHOUT), samples.pairsMeasuring(key, VariantName.WITH),
                        exact.without(), exact.with(), 0.0, 0.0), new MetricComparison.Change(exact.difference(),
                        exact.difference(), exact.difference(), percent, percent, percent),
                        new MetricComparison.Tests(null, null, null, null, null, null, null),
                        exact.verdict().label(), exact.reason(), List.of(),
                        new MetricComparison.Sensitivity(null, null), null));
                continue;
            }
            if (a == null) {
                // the pairs that measured it on each side, as its means are theirs: none were analysed
                comparisons.add(new MetricComparison(metric, new MetricComparison.Groups(
                        samples.pairsMeasuring(key, VariantName.WITHOUT), samples.pairsMeasuring(key, VariantName.WITH),
                        meanWithout, meanWith, null, null), new MetricComparison.Change(null, null, null, null, null,
                        null),
                        new MetricComparison.Tests(null, null, null, null, null, null, null),
                        MetricComparison.NOT_COMPARED, errors.get(i), List.of(),
                        new MetricComparison.Sensitivity(null, null), errors.get(i)));
                continue;
            }
            MetricComparison c = looks.apply(comparison(metric, direction, a, adjusted[i], meanWithout, meanWith,
                    costs, Math.max(1, samples.windowsPerPair()), warmup.get(key), options), direction, a,
                    adjusted[i], options);
            if (MetricKeys.HOST_ADJUSTED.containsValue(key)) {
                c = withWarning(c, probeNote);
            }
            comparisons.add(withWarning(c, WarmupCheck.note(warmup.get(key), options.alpha())));
        }
        return List.copyOf(comparisons);
    }

    private static MetricComparison withWarning(MetricComparison c, String warning) {
        if (warning == null) {
            return c;
        }
        List<String> warnings = new ArrayList<>(c.warnings());
        warnings.add(warning);
        return new MetricComparison(c.metric(), c.groups(), c.change(), c.tests(), c.verdict(), c.reason(), warnings,
                c.sensitivity(), c.error(), c.paired());
    }

    /**
     * Holm's adjustment within two families: the measured metrics, and the host's speed with the metrics scaled to
     * it ({@link MetricKeys#HOST_ADJUSTED}), which restate the measured ones and must not make their verdicts
     * stricter. NaN where a metric could not be analysed.
     */
    static double[] holmByFamily(List<String> keys, List<PairedAnalysis> analyses) {
        double[] adjusted = new double[keys.size()];
        Arrays.fill(adjusted, Double.NaN);
        for (boolean host : new boolean[] {false, true}) {
            List<Integer> family = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                if (analyses.get(i) != null && HostProbeCheck.isHostScaled(keys.get(i)) == host) {
                    family.add(i);
                }
            }
            double[] p = Holm.adjust(family.stream().mapToDouble(i -> analyses.get(i).logRatio().pValue()).toArray());
            for (int j = 0; j < family.size(); j++) {
                adjusted[family.get(j)] = p[j];
            }
        }
        return adjusted;
    }

    /**
     * The note the scaled metrics carry when the host probe itself moved between the variants (p < α): the change
     * under test then slowed or sped up everything on the host, and the scaled figures may hide part of its effect.
     */
    private static String probeNote(List<String> keys, List<PairedAnalysis> analyses, ComparisonOptions options) {
        int i = keys.indexOf(MetricKeys.HOST_PROBE_NS);
        if (i < 0 || analyses.get(i) == null || !HostProbeCheck.moved(analyses.get(i), options.alpha())) {
            return null;
        }
        return "the host probe moved between the variants (" + HostProbeCheck.change(analyses.get(i))
                + "): this figure, scaled to it, may misstate the change; judge it by the measured metric";
    }

    private static MetricComparison comparison(MetricComparison.Metric metric, Direction direction, PairedAnalysis a,
                                               double holm, Double meanWithout, Double meanWith,
                                               Optional<PairCosts> costs, int windowsPerPair,
                                               WarmupCheck.Judged warmup,
                                               ComparisonOptions options) {
        TTestResult r = a.logRatio();
        TTestResult d = a.difference();
        TTestResult welch = a.welchIgnoringPairing();
        Optional<VarianceComponents> vc = a.varianceComponents();
        Optional<MetricComparison.NextRun> next = costs.flatMap(c -> NextRunPlan.of(a, c, windowsPerPair, options))
                .map(plan -> new MetricComparison.NextRun(plan.next().windowsPerPair(), plan.next().pairs(),
                        plan.next().mdePercent(), windowsPerPair, plan.thisDesignMdePercent(),
                        Double.isInfinite(plan.kaliberaJonesOptimum()) ? null : plan.kaliberaJonesOptimum(),
                        plan.betweenClamped()));
        MetricComparison.PairedFigures figures = new MetricComparison.PairedFigures(a.pairs(), a.windows(),
                a.pairLogRatios().stream().map(v -> 100 * Math.expm1(v)).toList(), a.pairIndexes(),
                finite(welch.pValue()), finite(welch.difference()),
                finite(welch.ciLow()), finite(welch.ciHigh()),
                vc.map(v -> 100 * Math.sqrt(v.between())).orElse(null),
                vc.map(v -> 100 * Math.sqrt(v.within())).orElse(null),
                next.orElse(null),
                warmup == null ? null : new MetricComparison.Warmup(warmup.drift().withPercent(),
                        warmup.drift().withoutPercent(), warmup.drift().relativeDifference().percent(),
                        warmup.drift().relativeDifference().ciLowPercent(),
                        warmup.drift().relativeDifference().ciHighPercent(), warmup.adjustedP(),
                        warmup.differs(options.alpha())),
                robust(a.robust()));
        Power power = a.power();
        return new MetricComparison(metric,
                new MetricComparison.Groups(a.pairs(), a.pairs(), meanWithout, meanWith, null, null),
                new MetricComparison.Change(d == null ? null : finite(d.difference()),
                        d == null ? null : finite(d.ciLow()), d == null ? null : finite(d.ciHigh()),
                        finite(a.relativeChange().percent()), finite(a.relativeChange().ciLowPercent()),
                        finite(a.relativeChange().ciHighPercent())),
                new MetricComparison.Tests(finite(r.t()), finite(r.df()), finite(r.pValue()), finite(holm), null, null,
                        null),
                verdict(direction, a, holm, options).label(), reason(direction, a, holm, options, power),
                a.warnings().stream().map(StatWarning::message).toList(), sensitivity(power), null, figures);
    }

    private static MetricComparison.Robust robust(RobustPairedChange r) {
        RelativeChange change = r.relativeChange();
        return new MetricComparison.Robust(finite(change.percent()), finite(change.ciLowPercent()),
                finite(change.ciHighPercent()), finite(r.pValue()), r.exact());
    }

    static Verdict verdict(Direction direction, PairedAnalysis a, double holm, ComparisonOptions options) {
        if (holm < options.alpha()) {
            return direction.improves(a.logRatio().difference()) ? Verdict.IMPROVED : Verdict.REGRESSED;
        }
        double margin = options.equivalenceMarginPercent();
        return a.relativeChange().ciLowPercent() > -margin && a.relativeChange().ciHighPercent() < margin
                ? Verdict.UNCHANGED : Verdict.INCONCLUSIVE;
    }

    private static String reason(Direction direction, PairedAnalysis a, double holm, ComparisonOptions options,
                                 Power power) {
        String p = "paired t over " + a.pairs() + " pairs, Holm " + Display.pEquals(holm);
        String alpha = "α = " + RFormat.format(options.alpha(), 7).strip();
        String margin = "±" + RFormat.format(options.equivalenceMarginPercent(), 7).strip() + "%";
        String interval = Display.percentInterval(a.relativeChange().ciLowPercent(),
                a.relativeChange().ciHighPercent());
        return switch (verdict(direction, a, holm, options)) {
            case IMPROVED, REGRESSED -> p + " < " + alpha + ": the change is "
                    + Display.percent(a.relativeChange().percent()) + " (" + (direction == Direction.LOWER_IS_BETTER
                    ? "lower" : "higher") + " is better)";
            case UNCHANGED -> "no significant change (" + p + " ≥ " + alpha + ") and its interval " + interval
                    + " lies within " + margin;
            case INCONCLUSIVE -> "no significant change (" + p + " ≥ " + alpha + "), but its interval " + interval
                    + " reaches beyond " + margin + ": " + morePairs(power);
        };
    }

    /** The minimum detectable effect and the pairs for the target effect, as fresh designs give runs per variant. */
    private static MetricComparison.Sensitivity sensitivity(Power power) {
        return new MetricComparison.Sensitivity(finite(power.minimumDetectableEffectPercent()),
                power.runsPerVariantForTarget());
    }

    private static String morePairs(Power power) {
        return power.runsPerVariantForTarget() >= Power.MAX_RUNS ? "more pairs would tell"
                : "about " + power.runsPerVariantForTarget() + " pairs like these would detect a "
                        + RFormat.format(power.targetEffectPercent(), 7).strip() + "% change";
    }

    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }
}
