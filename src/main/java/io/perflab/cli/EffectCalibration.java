package io.perflab.cli;

import io.perflab.paired.PairedInput;
import io.perflab.paired.PairedSamples;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.rpcbench.RpcBenchResult;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.Comparison;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.ComparisonResult;
import io.perflab.stats.Direction;
import io.perflab.stats.Display;
import io.perflab.stats.PairedAnalysis;
import io.perflab.stats.Power;
import io.perflab.stats.Proportion;
import io.perflab.stats.RelativeChange;
import io.perflab.stats.RobustPairedChange;
import io.perflab.stats.Summary;
import io.perflab.stats.VarianceComponents;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a calibration run of any design says about the instrument: the run is {@code experiments} experiments of the
 * same plan one after another — blocks of {@code perExperiment} consecutive pairs (a paired design) or of
 * {@code perExperiment} + {@code perExperiment} interleaved trials (fresh) — each judged as a real one would be:
 * pair by pair ({@link PairedAnalysis}) or by Welch with Fieller's interval of the change.
 *
 * <ul>
 *   <li>A/A (nothing injected): per headline metric how often an experiment called a change where there is none,
 *       with its Clopper–Pearson interval, and how wide one experiment's interval is.
 *   <li>Known effect ({@code serverWorkNanos} injected on the {@code with} side): per headline metric the reference
 *       effect, the mean estimate and its bias against the reference, how often the 95 % intervals covered the
 *       reference (coverage) and how often an experiment detected the effect (power). The reference is a long run's
 *       estimate when one is given ({@code --reference}); otherwise, for CPU per call only, the injected cost itself:
 *       N ns more per call, in percent of the baseline's CPU per call over the whole run. That is the direct cost;
 *       a slower server may also change how calls batch, which only a long reference run measures, and the bias
 *       then includes it. The injected cost's effect on the other metrics is not known in advance.
 * </ul>
 *
 * <p>A paired run is judged twice, by the verdict's t-test and by the robust check beside it
 * ({@link io.perflab.stats.RobustPairedChange}), in one table each. Over 300 lines: the two kinds of run, the two
 * designs' estimates and the report that explains every column share the blocks and the reference.
 *
 * @param design the design of the run
 * @param experiments blocks in the run
 * @param perExperiment pairs (paired) or trials per side (fresh) in each block
 * @param alpha significance level of each experiment's test
 * @param injectedNanos the serverWorkNanos of the {@code with} side; 0 for an A/A run
 * @param reference per metric, a long run's estimate of the change in percent, and where it comes from
 */
record EffectCalibration(ExperimentDesign design, int experiments, int perExperiment, double alpha, long injectedNanos,
                         Map<String, Double> reference, String referenceSource) {

    /** The metrics whose false positives are also counted together: the CPU and context-switch figures. */
    static final List<String> POOLED = PairedInput.COST_METRICS;

    /**
     * One experiment's estimate of a metric's change: percent with its interval, the test's p-value, the change its
     * test detects with 80 % power at its size and spread (NaN where there is no figure), and the pairs' log ratios
     * it was made from (a paired design; empty for fresh trials).
     */
    record Estimate(double percent, double lowPercent, double highPercent, double pValue, double mdePercent,
                    List<Double> pairLogRatios) {
    }

    /**
     * Whether the experiments of a paired run measured one and the same effect: the p-value of the one-way analysis of
     * variance of their pairs' log ratios by experiment ({@link VarianceComponents#fPValue()}, R: {@code oneway.test(r
     * ~ experiment, var.equal = TRUE)}). A small one says the effect itself moved between experiments (the host's
     * state can change what an injected cost is worth), so that no single reference can lie in 95 % of their
     * intervals. NaN for fresh trials and for fewer than 2 experiments.
     */
    static double sameEffectPValue(List<Estimate> estimates) {
        if (estimates.size() < 2 || estimates.stream().anyMatch(e -> e.pairLogRatios().isEmpty())) {
            return Double.NaN;
        }
        double[][] groups = estimates.stream().map(e -> e.pairLogRatios().stream().mapToDouble(Double::doubleValue)
                .toArray()).toArray(double[][]::new);
        try {
            return VarianceComponents.of(groups).fPValue();
        } catch (IllegalArgumentException oneValueEach) {
            return Double.NaN;
        }
    }

    /** Which of a paired experiment's tests an estimate is by. */
    enum Judgement {
        /** The verdict's: the t-test of the pairs' mean log ratios (Welch's for fresh trials). */
        VERDICT,
        /** The robust check: Huber's score of the windows' log ratios, tested by flipping the pairs' signs. */
        ROBUST
    }

    /** Each block's estimate of {@code metric} by the verdict's test, for the blocks where it could be made. */
    List<Estimate> estimates(List<TrialResult> results, String metric) {
        return estimates(results, metric, Judgement.VERDICT);
    }

    /** Each block's estimate of {@code metric} by {@code judgement} (a paired design's), where it could be made. */
    List<Estimate> estimates(List<TrialResult> results, String metric, Judgement judgement) {
        ComparisonOptions options = ComparisonOptions.defaults().withAlpha(alpha);
        List<Estimate> estimates = new ArrayList<>();
        for (int block = 0; block < experiments; block++) {
            try {
                estimates.add(design.paired() ? pairedEstimate(results, metric, block, options, judgement)
                        : freshEstimate(results, metric, block, options));
            } catch (IllegalArgumentException | java.util.NoSuchElementException tooFew) {
                // a block without enough successful pairs or trials is no experiment
            }
        }
        return estimates;
    }

    private Estimate pairedEstimate(List<TrialResult> results, String metric, int block, ComparisonOptions options,
                                    Judgement judgement) {
        return pairedEstimate(results, metric, block * perExperiment, (block + 1) * perExperiment, options, judgement);
    }

    /**
     * The estimate of {@code metric} from the pairs {@code fromPair} (inclusive) to {@code toPair} (exclusive) by
     * {@code judgement}; throws {@link IllegalArgumentException} or {@link java.util.NoSuchElementException} where
     * those pairs do not allow one (too few, or the metric not measured).
     */
    Estimate pairedEstimate(List<TrialResult> results, String metric, int fromPair, int toPair,
                            ComparisonOptions options, Judgement judgement) {
        PairedSamples samples = PairedSamples.ofPairs(results, fromPair, toPair);
        PairedAnalysis a = PairedAnalysis.analyze(samples.windows(metric), options);
        if (judgement == Judgement.ROBUST) {
            RobustPairedChange robust = a.robust();
            RelativeChange c = robust.relativeChange();
            return new Estimate(c.percent(), c.ciLowPercent(), c.ciHighPercent(), robust.pValue(), Double.NaN,
                    a.pairLogRatios());
        }
        RelativeChange c = a.relativeChange();
        return new Estimate(c.percent(), c.ciLowPercent(), c.ciHighPercent(), a.logRatio().pValue(),
                a.power().minimumDetectableEffectPercent(), a.pairLogRatios());
    }

    private Estimate freshEstimate(List<TrialResult> results, String metric, int block, ComparisonOptions options) {
        int from = block * 2 * perExperiment;
        int to = from + 2 * perExperiment;
        double[] with = Spread.values(results, metric, VariantName.WITH, from, to);
        double[] without = Spread.values(results, metric, VariantName.WITHOUT, from, to);
        ComparisonResult r = Comparison.compare(with, without, MetricKeys.lowerIsBetter(metric)
                ? Direction.LOWER_IS_BETTER : Direction.HIGHER_IS_BETTER, options);
        RelativeChange c = r.relativeChange().orElseThrow();
        return new Estimate(c.percent(), c.ciLowPercent(), c.ciHighPercent(), r.welch().pValue(),
                r.power().map(Power::minimumDetectableEffectPercent).orElse(Double.NaN), List.of());
    }

    /** Whether any experiment of {@code results} gives an estimate of any headline metric: a row of the report. */
    boolean judgesAny(List<TrialResult> results) {
        return headline(results).stream().anyMatch(metric -> !estimates(results, metric).isEmpty());
    }

    /** The reference change of {@code metric} in percent, NaN where none is known. */
    double referenceOf(String metric, List<TrialResult> results) {
        if (reference.containsKey(metric)) {
            return reference.get(metric);
        }
        String measured = unadjusted(metric);
        if (injectedNanos > 0 && (measured.equals(MetricKeys.CPU_US_PER_REQ)
                || measured.equals(MetricKeys.USER_CPU_US_PER_REQ))) {
            double baseline = design.paired() ? PairedSamples.of(results).mean(measured, VariantName.WITHOUT)
                    : average(Spread.values(results, measured, VariantName.WITHOUT, 0, Integer.MAX_VALUE));
            return 100 * (injectedNanos / 1e3) / baseline;
        }
        return Double.NaN;
    }

    /** The metric {@code metric} scales to the host's speed, or {@code metric} itself. */
    private static String unadjusted(String metric) {
        return MetricKeys.HOST_ADJUSTED.entrySet().stream().filter(e -> e.getValue().equals(metric))
                .map(Map.Entry::getKey).findFirst().orElse(metric);
    }

    /** The report: one row per headline metric, then what the columns mean and what the run cost. */
    String format(List<TrialResult> results, Duration elapsed) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%s calibration, %s design: %d experiment%s "
                + "of %s, each tested at α = %s%s%n%n", injectedNanos == 0 ? "A/A" : "Known-effect",
                design.label(), experiments, experiments == 1 ? "" : "s", design.paired() ? perExperiment + " pairs"
                        : perExperiment + " + " + perExperiment + " trials", Display.value(alpha).strip(),
                injectedNanos == 0 ? "; the same variant on both sides"
                        : "; serverWorkNanos=" + injectedNanos + " injected on the with side"));
        s.append(table(results, Judgement.VERDICT));
        if (design.paired()) {
            s.append(String.format(Locale.ROOT, "%nThe robust check of the same experiments (Huber's score of the "
                    + "windows' log ratios, tested by flipping the signs of whole pairs; beside the verdict, not in "
                    + "it):%n"));
            s.append(table(results, Judgement.ROBUST));
        }
        s.append(design.paired() ? WarmupTally.line(b -> PairedSamples.ofPairs(results, b * perExperiment,
                (b + 1) * perExperiment), experiments, alpha, injectedNanos == 0) : "");
        s.append(injectedNanos == 0
                ? "pooled: the tests of user, system and total CPU and context switches per request together (one "
                        + "experiment's four tests are correlated, so its interval is narrower than it should be).\n"
                        + "false +: experiments whose test said p < α although both sides ran the same; mean ± CI: the "
                        + "half-width of one experiment's 95% interval of the change, in percentage points; MDE: the "
                        + "change one experiment's test detects with 80% power at its size and spread, their mean.\n"
                : "reference: " + referenceSource + ". estimate: the mean of the experiments' estimates; bias: "
                        + "estimate − reference; coverage: experiments whose 95% interval held the reference; power: "
                        + "experiments with p < α (and, with a reference, on its side); same effect: the p-value of "
                        + "the one-way analysis of variance of the pairs' log ratios by experiment, small when the "
                        + "effect itself differed between experiments (then coverage below 95% need not mean the "
                        + "intervals are too narrow).\n" + measuredInjection(results));
        s.append(String.format(Locale.ROOT, "%d results in %s: about %s per experiment.%n", results.size(),
                minutes(elapsed), minutes(elapsed.dividedBy(Math.max(1, experiments)))));
        return s.toString();
    }

    /**
     * The table of the headline metrics' estimates by {@code judgement}: false positives, or bias, coverage and power.
     */
    private String table(List<TrialResult> results, Judgement judgement) {
        StringBuilder s = new StringBuilder();
        String row = "%-24s %10s %10s %9s %11s %-18s %11s %-18s %10s  %s%n";
        if (injectedNanos == 0) {
            s.append(String.format(Locale.ROOT, "%-24s %10s %10s %7s %-18s %12s %10s%n", "metric", "experiments",
                    "false +", "rate", "95% CI", "mean ± CI", "MDE"));
        } else {
            s.append(String.format(Locale.ROOT, row, "metric", "reference", "estimate", "bias", "coverage", "95% CI",
                    "power", "95% CI", "mean ± CI", "same effect"));
        }
        int pooledTests = 0;
        int pooledFalse = 0;
        for (String metric : headline(results)) {
            List<Estimate> estimates = estimates(results, metric, judgement);
            if (estimates.isEmpty()) {
                continue;
            }
            double halfWidth = estimates.stream().mapToDouble(e -> (e.highPercent() - e.lowPercent()) / 2).average()
                    .orElse(Double.NaN);
            long detected = estimates.stream().filter(e -> e.pValue() < alpha).count();
            if (injectedNanos == 0) {
                Proportion fp = Proportion.clopperPearson((int) detected, estimates.size(), 0.95);
                double mde = estimates.stream().mapToDouble(Estimate::mdePercent).filter(Double::isFinite).average()
                        .orElse(Double.NaN);
                s.append(String.format(Locale.ROOT, "%-24s %10d %10s %7.2f %-18s %12s %10s%n", metric,
                        estimates.size(), detected + "/" + estimates.size(), fp.rate(), interval(fp),
                        "±" + pp(halfWidth), Double.isFinite(mde) ? "±" + pp(mde) : "—"));
                if (POOLED.contains(metric)) {
                    pooledTests += estimates.size();
                    pooledFalse += (int) detected;
                }
                continue;
            }
            double ref = referenceOf(metric, results);
            double mean = estimates.stream().mapToDouble(Estimate::percent).average().orElse(Double.NaN);
            Coverage coverage = Coverage.of(estimates.stream().map(e -> new double[] {e.lowPercent(),
                    e.highPercent()}).toList(), ref);
            if (Double.isFinite(ref)) {
                detected = estimates.stream().filter(e -> e.pValue() < alpha && Math.signum(e.percent())
                        == Math.signum(ref)).count();
            }
            Proportion power = Proportion.clopperPearson((int) detected, estimates.size(), 0.95);
            double same = sameEffectPValue(estimates);
            s.append(String.format(Locale.ROOT, row, metric, Double.isFinite(ref) ? Display.percent(ref) : "—",
                    Display.percent(mean), Double.isFinite(ref) ? String.format(Locale.ROOT, "%+.2f pp", mean - ref)
                            : "—", coverage.share(), coverage.interval(), detected + "/" + estimates.size(),
                    interval(power),
                    "±" + pp(halfWidth), Double.isFinite(same) ? Display.pEquals(same) : "—"));
        }
        if (injectedNanos == 0 && pooledTests > 0) {
            Proportion pooled = Proportion.clopperPearson(pooledFalse, pooledTests, 0.95);
            s.append(String.format(Locale.ROOT, "%-24s %10d %10s %7.2f %-18s%n", "pooled (CPU, ctxsw)", pooledTests,
                    pooledFalse + "/" + pooledTests, pooled.rate(), interval(pooled)));
        }
        return s.toString();
    }

    /**
     * What the injected work cost in the {@code with} side's windows, as its calls that timed themselves measured it
     * ({@link RpcBenchResult#SERVER_WORK_MEASURED_NANOS}), beside the cost asked for; empty when no window recorded
     * it (a file from before windows did).
     */
    String measuredInjection(List<TrialResult> results) {
        double[] measured = results.stream().filter(r -> r.variant().equals(VariantName.WITH.label()))
                .map(r -> r.environment().get(RpcBenchResult.SERVER_WORK_MEASURED_NANOS))
                .map(Spread::number).filter(v -> v != null && Double.isFinite(v)).mapToDouble(Double::doubleValue)
                .toArray();
        if (injectedNanos == 0 || measured.length == 0) {
            return "";
        }
        Summary m = Summary.of(measured, VariantName.WITH.label());
        return String.format(Locale.ROOT, "injected cost as measured by the with side's calls that time themselves "
                + "(one in 64, on the thread CPU clock): %.0f ns per call, the median of %d windows' medians "
                + "(quartiles %.0f–%.0f, range %.0f–%.0f), against the %d ns asked.%n", m.median(), m.n(), m.q1(),
                m.q3(), m.min(), m.max(), injectedNanos);
    }

    private List<String> headline(List<TrialResult> results) {
        List<String> present = new ArrayList<>();
        List<String> candidates = new ArrayList<>(Spread.METRICS);
        candidates.addAll(MetricKeys.COMMAND);
        candidates.addAll(MetricKeys.HOST_ADJUSTED.values());
        candidates.add(MetricKeys.HOST_PROBE_NS);
        for (String metric : candidates) {
            if (results.stream().anyMatch(r -> r.ok() && r.metrics().containsKey(metric))) {
                present.add(metric);
            }
        }
        return present;
    }

    /**
     * How many intervals held a reference: {@code k/n} and its Clopper–Pearson interval; "—" and nothing without a
     * reference (NaN).
     */
    record Coverage(String share, String interval) {

        /** Of {@code bounds}, each {low, high} in percent, against {@code reference} in percent. */
        static Coverage of(List<double[]> bounds, double reference) {
            if (!Double.isFinite(reference)) {
                return new Coverage("—", "");
            }
            int covered = (int) bounds.stream().filter(b -> b[0] <= reference && reference <= b[1]).count();
            return new Coverage(covered + "/" + bounds.size(), EffectCalibration.interval(
                    Proportion.clopperPearson(covered, bounds.size(), 0.95)));
        }
    }

    static String interval(Proportion p) {
        return String.format(Locale.ROOT, "[%.3f, %.3f]", p.low(), p.high());
    }

    static String pp(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2f pp", v) : "—";
    }

    private static double average(double[] values) {
        return java.util.Arrays.stream(values).average().orElse(Double.NaN);
    }

    static String minutes(Duration d) {
        long s = Math.round(d.toMillis() / 1000.0);
        return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
    }
}
