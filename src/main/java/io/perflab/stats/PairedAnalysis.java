package io.perflab.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The analysis of one metric of a paired design ({@code duet} or {@code alternating}): K pairs, each with M windows
 * of both variants. The JVM pair is the unit of replication; windows of one pair share the JVMs' start, placement
 * and warmup and are never counted as independent samples.
 *
 * <p>For window j of pair i measured on both sides, y<sub>ij</sub> = log(with<sub>ij</sub>/without<sub>ij</sub>),
 * computed as log1p((with − without)/without) so that ratios near 1 keep their digits. A window missing on one side
 * (see {@link PairWindows}) is left out on both; a pair with no window measured on both sides is left out whole;
 * each leaves a {@link StatWarning.Kind#MISSING_WINDOWS} warning. Messages and warnings name a pair and a window
 * by their index from 0 — the pair's recorded one ({@link PairWindows#of(int, double[], double[])}), which a failed
 * pair left out before it does not shift.
 *
 * <ul>
 *   <li>Per pair, rᵢ = the mean of its y<sub>ij</sub>. The one-sample t interval over the K values rᵢ
 *       ({@link #logRatio()}, R: {@code t.test(r)}) gives the relative change
 *       100·(e<sup>r̄</sup> − 1) % with the interval 100·(e<sup>l</sup> − 1) to 100·(e<sup>u</sup> − 1)
 *       ({@link #relativeChange()}): a ratio of geometric means, which the log keeps symmetric between the
 *       variants.
 *   <li>Per pair, the means of its matched windows on each side; the paired t-test of those K pairs of means
 *       ({@link #difference()}, R: {@code t.test(with, without, paired = TRUE)}) gives the change in the metric's
 *       units. Welch's test of the same means ({@link #welchIgnoringPairing()}) is given beside it: it is what the
 *       figures say if the pairing is ignored.
 *   <li>Huber's score of the windows' log ratios, tested by flipping the signs of whole pairs
 *       ({@link #robust()}): the change judged so that a few windows far off weigh no more than windows a little
 *       off. Given beside the verdict's t-test, as Welch's is, and computed only when asked.
 *   <li>The variance components of y<sub>ij</sub> between and within pairs ({@link VarianceComponents}), when at
 *       least one pair has two windows, with Kalibera and Jones's optimal windows per pair and the design of least
 *       detectable change for a run of a given length.
 * </ul>
 *
 * <pre>{@code
 * PairedAnalysis a = PairedAnalysis.analyze(pairs, ComparisonOptions.defaults());
 * a.relativeChange();                           // e.g. -2.71 % [-3.44, -1.99]
 * a.logRatio().pValue();                        // R: t.test(r)$p.value
 * a.varianceComponents().flatMap(v -> v.nextRun(360, 20, 7, 100, 0.05, 0.8)); // windows × pairs in 6 min
 * }</pre>
 *
 * @param pairs K, the pairs analysed
 * @param windows the matched windows analysed, Σ over the pairs
 * @param pairLogRatios rᵢ of the pairs analysed, in input order
 * @param pairIndexes the index of each pair of {@code pairLogRatios}: its recorded one, else its place in the input,
 *     from 0
 * @param logRatio the one-sample t-test of the rᵢ against 0 (its difference is r̄)
 * @param relativeChange 100·(e<sup>x</sup> − 1) of r̄ and of its interval
 * @param difference the paired t-test of the pairs' window means, in the metric's units; null when every pair's
 *     difference is the same (a constant shift, which R's {@code t.test} refuses as "data are essentially
 *     constant"), with a {@link StatWarning.Kind#CONSTANT_DATA} warning: the log ratios still differ then
 * @param welchIgnoringPairing Welch's test of the same window means as two independent groups
 * @param windowLogRatios per pair analysed, its matched windows' y<sub>ij</sub>, in window order; the arrays are the
 *     analysis's own and must not be changed
 * @param varianceComponents between and within pairs; empty when every pair has a single window
 * @param warnings caveats, in the order found
 * @param options the settings used (level and alternative of every interval)
 * @see <a href="https://doi.org/10.1145/3358960.3379132">L. Bulej, V. Horký, P. Tůma, F. Farquet, A. Prokopec
 *     (2020), Duet benchmarking: improving measurement accuracy in the cloud, ICPE 2020</a>
 * @see <a href="https://doi.org/10.1145/2464157.2464160">T. Kalibera, R. Jones (2013), Rigorous benchmarking in
 *     reasonable time, ISMM 2013</a>
 */
public record PairedAnalysis(int pairs, int windows, List<Double> pairLogRatios, List<Integer> pairIndexes,
        TTestResult logRatio, RelativeChange relativeChange, TTestResult difference, TTestResult welchIgnoringPairing,
        List<double[]> windowLogRatios, Optional<VarianceComponents> varianceComponents, List<StatWarning> warnings,
        ComparisonOptions options) {

    public PairedAnalysis {
        pairLogRatios = List.copyOf(pairLogRatios);
        pairIndexes = List.copyOf(pairIndexes);
        windowLogRatios = List.copyOf(windowLogRatios);
        warnings = List.copyOf(warnings);
    }

    /**
     * Analyses the pairs of a paired design.
     *
     * @param pairs the pairs in run order, each with its windows of both variants
     * @param options confidence level and alternative of the intervals (α and the rest are not used)
     * @throws IllegalArgumentException with fewer than 2 pairs that have a matched window, a window value that is
     *     not positive (a log ratio needs positive values), or pair log ratios that are essentially constant
     */
    public static PairedAnalysis analyze(List<PairWindows> pairs, ComparisonOptions options) {
        if (pairs == null || options == null) {
            throw new IllegalArgumentException("pairs and options must be given");
        }
        List<double[]> logRatios = new ArrayList<>();
        List<Integer> indexes = new ArrayList<>();
        List<Double> withMeans = new ArrayList<>();
        List<Double> withoutMeans = new ArrayList<>();
        List<String> partial = new ArrayList<>();
        List<String> empty = new ArrayList<>();
        int dropped = 0;
        int total = 0;
        for (int i = 0; i < pairs.size(); i++) {
            PairWindows p = pairs.get(i);
            if (p == null) {
                throw new IllegalArgumentException("pair " + i + " of the list is missing");
            }
            int index = p.indexOr(i);
            double[] w = p.withShared();
            double[] wo = p.withoutShared();
            int n = 0;
            for (int j = 0; j < p.length(); j++) {
                if (p.matched(j)) {
                    n++;
                }
            }
            double[] y = new double[n];
            double[] a = new double[n];
            double[] b = new double[n];
            int k = 0;
            for (int j = 0; j < p.length(); j++) {
                if (!p.matched(j)) {
                    continue;
                }
                if (!(w[j] > 0) || !(wo[j] > 0)) {
                    throw new IllegalArgumentException("pair " + index + ", window " + j + ": '"
                            + (w[j] > 0 ? "without" : "with") + "' is " + (w[j] > 0 ? wo[j] : w[j])
                            + ": a log ratio needs positive values");
                }
                y[k] = Math.log1p((w[j] - wo[j]) / wo[j]);
                a[k] = w[j];
                b[k] = wo[j];
                k++;
            }
            int missing = p.length() - n;
            dropped += missing;
            if (n == 0) {
                empty.add(String.valueOf(index));
                continue;
            }
            if (missing > 0) {
                partial.add(String.valueOf(index));
            }
            total += n;
            logRatios.add(y);
            indexes.add(index);
            withMeans.add(Sums.mean(a));
            withoutMeans.add(Sums.mean(b));
        }
        int k = logRatios.size();
        if (k < 2) {
            throw new IllegalArgumentException("not enough pairs: " + k + " (need ≥ 2)"
                    + (empty.isEmpty() ? "" : "; pairs without a window measured on both sides: "
                            + String.join(", ", empty)));
        }
        double[] r = new double[k];
        for (int i = 0; i < k; i++) {
            r[i] = Sums.mean(logRatios.get(i));
        }
        double level = options.confidenceLevel();
        Alternative alternative = options.alternative();
        TTestResult logRatio = TTest.oneSample(r, "pair log ratios", alternative, level);
        double[] wm = withMeans.stream().mapToDouble(Double::doubleValue).toArray();
        double[] wom = withoutMeans.stream().mapToDouble(Double::doubleValue).toArray();
        TTestResult welch = TTest.welch(wm, wom, alternative, level);
        List<StatWarning> warnings = new ArrayList<>();
        TTestResult difference = null;
        try {
            difference = TTest.paired(wm, wom, alternative, level);
        } catch (IllegalArgumentException constantDifferences) {
            // a constant additive shift: the log ratios, which give the change and the verdict, still differ
            warnings.add(new StatWarning(StatWarning.Kind.CONSTANT_DATA, null, "the paired t-test of the difference"
                    + " in the metric's units is left out (" + constantDifferences.getMessage() + "); the change"
                    + " and the verdict come from the pairs' log ratios, which differ"));
        }
        if (k < Comparison.RECOMMENDED_SAMPLES) {
            warnings.add(new StatWarning(StatWarning.Kind.TOO_FEW_SAMPLES, null, "only " + k + " pairs: need ≥ "
                    + Comparison.RECOMMENDED_SAMPLES + " for a trustworthy confidence interval"));
        }
        if (dropped > 0) {
            List<String> parts = new ArrayList<>();
            if (!partial.isEmpty()) {
                parts.add("left out windows measured on one side only (pair" + (partial.size() == 1 ? " " : "s ")
                        + String.join(", ", partial) + ")");
            }
            if (!empty.isEmpty()) {
                parts.add("left out pair" + (empty.size() == 1 ? " " : "s ") + String.join(", ", empty)
                        + " with no window measured on both sides");
            }
            warnings.add(new StatWarning(StatWarning.Kind.MISSING_WINDOWS, null, dropped + " window"
                    + (dropped == 1 ? "" : "s") + " without a partner: " + String.join("; ", parts)));
        }
        Optional<VarianceComponents> components = Optional.empty();
        if (total > k) {
            VarianceComponents vc = VarianceComponents.of(logRatios.toArray(new double[0][]));
            if (vc.betweenClamped()) {
                warnings.add(new StatWarning(StatWarning.Kind.NEGATIVE_VARIANCE_COMPONENT, null,
                        "the between-pairs variance estimate is negative (mean squares " + Display.value(
                                vc.meanSquareBetween()) + " between < " + Display.value(vc.meanSquareWithin())
                                + " within): reported as 0, the pairs differ no more than their windows do"));
            }
            components = Optional.of(vc);
        }
        List<Double> ratios = new ArrayList<>(k);
        for (double v : r) {
            ratios.add(v);
        }
        return new PairedAnalysis(k, total, ratios, indexes, logRatio, RelativeChange.ofLogRatio(logRatio), difference,
                welch, logRatios, components, warnings, options);
    }

    /**
     * The robust check of the change ({@link RobustPairedChange}) at the options' level and alternative, computed when
     * asked: the sequential looks and the warmup check, which analyse a metric many times, do not need it.
     */
    public RobustPairedChange robust() {
        return RobustPairedChange.of(windowLogRatios.toArray(new double[0][]), options.alternative(),
                options.confidenceLevel());
    }

    /**
     * What this experiment could detect: the relative change its test finds with the options' power (the minimum
     * detectable effect), and the pairs of as many windows that would find the options' target effect, from the
     * spread of the pairs' log ratios ({@link Power#paired}).
     */
    public Power power() {
        return Power.paired(pairLogRatioSd(), pairs, options.alpha(), options.power(), options.targetEffectPercent());
    }

    /**
     * s, the standard deviation of the pairs' log ratios rᵢ, which the test's interval and {@link #power()} use:
     * s²/K is the variance of their mean as this run measured it.
     */
    public double pairLogRatioSd() {
        return logRatio.stdErr() * Math.sqrt(pairs);
    }
}
