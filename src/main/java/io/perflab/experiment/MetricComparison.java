package io.perflab.experiment;

import static com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.perflab.stats.Direction;
import io.perflab.stats.SequentialLook;
import io.perflab.stats.SpendingFunction;
import io.perflab.stats.Verdict;
import io.perflab.system.ApiValues;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Objects;

/**
 * One metric of an experiment, compared: what the results table, the API and the reports show. It is composed of
 * the metric, the two groups, the change, the tests, the verdict and the sensitivity; in JSON their fields stand
 * side by side ({@code metric, unit, …, nWithout, nWith, …, percent, …, pValue, …, verdict, …, mdePercent}).
 * Statistics that could not be computed are null, and {@code error} says why; a NaN is never shown as a result.
 *
 * @param verdict {@code improved}, {@code regressed}, {@code unchanged}, {@code inconclusive} (compared, and more
 *     runs are needed to tell), or {@link #NOT_COMPARED} (no statistics: {@code error} says why)
 * @param reason why the verdict is what it is
 * @param warnings caveats of the data (too few runs, outliers, drift), each said once
 * @param error why no statistics could be computed, else null
 * @param paired in a paired design, the pair-by-pair figures behind the verdict; null (left out of JSON) otherwise.
 *     The groups then count pairs, the change is the paired one and the tests are the one-sample t-test of the
 *     pair log ratios ({@link PairedFigures}). Of a target of a sequential run's stopping rule, the change's interval
 *     and the verdict are the rule's last look's, and its p-values, which ignore the looks, are only in
 *     {@link Sequential}
 */
public record MetricComparison(@JsonUnwrapped Metric metric, @JsonUnwrapped Groups groups,
                               @JsonUnwrapped Change change, @JsonUnwrapped Tests tests,
                               @ApiValues(value = Verdict.class, written = "label",
                                       also = MetricComparison.NOT_COMPARED) String verdict,
                               String reason, List<String> warnings, @JsonUnwrapped Sensitivity sensitivity,
                               @Schema(nullable = true) String error,
                               @JsonInclude(NON_NULL) PairedFigures paired) {

    /** The verdict of a metric that could not be compared: its {@code error} says why. */
    public static final String NOT_COMPARED = "not compared";

    public MetricComparison {
        // a part left out would take its fields out of the JSON, which the API documents as always there
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(groups, "groups");
        Objects.requireNonNull(change, "change");
        Objects.requireNonNull(tests, "tests");
        Objects.requireNonNull(sensitivity, "sensitivity");
        warnings = List.copyOf(warnings);
    }

    /** A comparison of the fresh design (or of an upload). */
    public MetricComparison(Metric metric, Groups groups, Change change, Tests tests, String verdict, String reason,
                            List<String> warnings, Sensitivity sensitivity, String error) {
        this(metric, groups, change, tests, verdict, reason, warnings, sensitivity, error, null);
    }

    /** The metric's key, e.g. {@code user_cpu_us_per_req}. */
    public String key() {
        return metric.key();
    }

    /** This comparison with one more caveat, said first. */
    public MetricComparison withWarning(String warning) {
        List<String> all = new java.util.ArrayList<>(List.of(warning));
        all.addAll(warnings);
        return new MetricComparison(metric, groups, change, tests, verdict, reason, all, sensitivity, error, paired);
    }

    /** Whether both variants have values, so that the verdict compares something. */
    public boolean bothSides() {
        return groups.nWith() > 0 && groups.nWithout() > 0;
    }

    /**
     * What was measured.
     *
     * @param direction {@code lower} or {@code higher} is better
     */
    public record Metric(@JsonProperty("metric") String key, String unit,
                         @ApiValues(value = Direction.class, written = "label") String direction, String description) {
    }

    /** Runs and the mean and standard deviation of each variant; null where a group has no values. */
    public record Groups(int nWithout, int nWith, Double meanWithout, Double meanWith, Double sdWithout,
                         Double sdWith) {
    }

    /**
     * How {@code with} differs from {@code without}.
     *
     * @param difference mean(with) − mean(without), with Welch's interval
     * @param percent relative change in percent of the baseline mean, with Fieller's interval
     */
    public record Change(Double difference, Double differenceCiLow, Double differenceCiHigh, Double percent,
                         Double ciLowPercent, Double ciHighPercent) {
    }

    /**
     * The tests behind the verdict.
     *
     * @param pValue Welch's two-sided p
     * @param holmPValue {@code pValue} after Holm's adjustment across the experiment's metrics
     * @param hodgesLehmann the Hodges–Lehmann shift of the rank-sum test
     */
    public record Tests(Double t, Double df, Double pValue, Double holmPValue, Double mannWhitneyPValue,
                        Double hodgesLehmann, Double cohenD) {
    }

    /**
     * The figures of a paired design beside its verdict: per pair the mean over its windows of log(with/without),
     * the one-sample t interval over the pairs giving the change; Welch's test of the pairs' window means as two
     * independent groups, which ignores the pairing and is shown only beside it; the variance components of the log
     * ratios; and the windows per pair for the next run.
     *
     * @param pairs the pairs analysed (the unit of replication)
     * @param windows the matched windows analysed, over all pairs
     * @param pairPercents each analysed pair's change, 100·(e<sup>r</sup> − 1), in run order
     * @param pairIndexes the recorded index of each pair of {@code pairPercents}, from 0: a failed pair left out
     *     leaves a gap
     * @param welchPValueIgnoringPairing Welch's two-sided p of the same pairs' window means as independent groups
     * @param welchDifferenceIgnoringPairing the difference Welch's test estimates, mean(with) − mean(without) of
     *     those window means, in the metric's units
     * @param welchCiLowIgnoringPairing Welch's interval of the difference, ignoring the pairing
     * @param betweenPairsSdPercent √σ²<sub>between</sub> as a percentage: how much the change varies from pair to
     *     pair; null when every pair has one window
     * @param withinPairSdPercent √σ²<sub>within</sub>: how much windows of one pair vary
     * @param nextRun the windows per pair for a next run as long as this one, from the measured costs of a pair (JVM
     *     start and warmup) and of a window; null when the costs or components are unknown
     * @param warmup how each variant's JVMs moved from their first window to their last, and the test of the
     *     difference; null with one window per pair, or when it cannot be told
     * @param robust the change judged so that a few windows far off weigh no more than windows a little off:
     *     Huber's score of the windows' log ratios, its sign-flip test over the pairs and the test's interval
     *     ({@link io.perflab.stats.RobustPairedChange}); shown beside the verdict's t-test, as Welch's is
     * @param sequential of a metric the stopping rule looked at (a target), its last look, which gives the change,
     *     its interval and the verdict, and the t-test that ignores the looks; null for any other metric
     */
    public record PairedFigures(int pairs, int windows, List<Double> pairPercents, List<Integer> pairIndexes,
                                @JsonInclude(NON_NULL) Double welchPValueIgnoringPairing,
                                @JsonInclude(NON_NULL) Double welchDifferenceIgnoringPairing,
                                @JsonInclude(NON_NULL) Double welchCiLowIgnoringPairing,
                                @JsonInclude(NON_NULL) Double welchCiHighIgnoringPairing,
                                @JsonInclude(NON_NULL) Double betweenPairsSdPercent,
                                @JsonInclude(NON_NULL) Double withinPairSdPercent,
                                @JsonInclude(NON_NULL) NextRun nextRun, @JsonInclude(NON_NULL) Warmup warmup,
                                @JsonInclude(NON_NULL) Robust robust, @JsonInclude(NON_NULL) Sequential sequential) {

        public PairedFigures {
            pairPercents = List.copyOf(pairPercents);
            pairIndexes = List.copyOf(pairIndexes);
            if (pairIndexes.size() != pairPercents.size()) {
                throw new IllegalArgumentException(pairPercents.size() + " pairs' changes but " + pairIndexes.size()
                        + " pair indexes: each change needs its pair's index");
            }
        }

        /** The figures of a metric the stopping rule did not look at. */
        public PairedFigures(int pairs, int windows, List<Double> pairPercents, List<Integer> pairIndexes,
                             Double welchPValueIgnoringPairing, Double welchDifferenceIgnoringPairing,
                             Double welchCiLowIgnoringPairing, Double welchCiHighIgnoringPairing,
                             Double betweenPairsSdPercent, Double withinPairSdPercent, NextRun nextRun,
                             Warmup warmup, Robust robust) {
            this(pairs, windows, pairPercents, pairIndexes, welchPValueIgnoringPairing, welchDifferenceIgnoringPairing,
                    welchCiLowIgnoringPairing, welchCiHighIgnoringPairing, betweenPairsSdPercent, withinPairSdPercent,
                    nextRun, warmup, robust, null);
        }

        /** These figures with the last look of the stopping rule at their metric. */
        PairedFigures withSequential(Sequential value) {
            return new PairedFigures(pairs, windows, pairPercents, pairIndexes, welchPValueIgnoringPairing,
                    welchDifferenceIgnoringPairing, welchCiLowIgnoringPairing, welchCiHighIgnoringPairing,
                    betweenPairsSdPercent, withinPairSdPercent, nextRun, warmup, robust, value);
        }
    }

    /**
     * A paired metric's change judged by Huber's score of its windows' log ratios, tested by flipping the signs of
     * whole pairs ({@link io.perflab.stats.RobustPairedChange}).
     *
     * @param percent the change, 100·(e<sup>δ̂</sup> − 1)
     * @param ciLowPercent the lower bound of the test's interval; null when unbounded (too few pairs)
     * @param ciHighPercent the upper bound; null when unbounded
     * @param pValue the sign-flip test's two-sided p of no change
     * @param exact whether every sign pattern of the pairs was counted, else random ones
     */
    public record Robust(Double percent, Double ciLowPercent, Double ciHighPercent, Double pValue, boolean exact) {
    }

    /**
     * The last look of a sequential run's stopping rule at one of its targets, which gives the metric's result: its
     * change with the repeated confidence interval (the comparison's {@link Change}, adjusted for the looks) and its
     * verdict by the look's boundary; and the ordinary t-test of the pair log ratios, which ignores the looks and is
     * shown beside it only.
     *
     * @param looks how many looks the rule took at the metric; the last is this one
     * @param pairs the pairs the last look analysed
     * @param plannedPairs N, the pairs α was spent over
     * @param spending the α-spending function, e.g. {@code O'Brien–Fleming}
     * @param t the look's t statistic of the pair log ratios
     * @param tBoundary what |t| had to reach; null when the look spent no α (+∞)
     * @param tFutility the look's futility bound, below which |t| made its target futile; null where it had none
     *     ({@link SequentialLookRepository.LookRecord#tFutility})
     * @param outcome {@code SIGNIFICANT}, {@code PRECISE_ENOUGH}, {@code FUTILE}, {@code LAST_LOOK} or {@code CONTINUE}
     * @param ciLowPercentIgnoringLooks the t interval of the change over all pairs analysed, as if no look was taken
     * @param pValueIgnoringLooks the two-sided p of that t-test
     * @param holmPValueIgnoringLooks that p after Holm's adjustment across the experiment's metrics
     * @param adjustedPercent the change adjusted for stopping at the look that ended the target, median-unbiased by
     *     the stage-wise ordering ({@link io.perflab.stats.SequentialLook#stagewise}); null while no look ended it
     * @param adjustedCiLowPercent the lower end of its stage-wise interval
     * @param adjustedCiHighPercent the upper end
     */
    public record Sequential(int looks, int pairs, int plannedPairs,
                             @ApiValues(value = SpendingFunction.class, written = "label") String spending,
                             @JsonInclude(NON_NULL) Double t, @JsonInclude(NON_NULL) Double tBoundary,
                             @JsonInclude(NON_NULL) Double tFutility,
                             @ApiValues(SequentialLook.Outcome.class) String outcome,
                             @JsonInclude(NON_NULL) Double ciLowPercentIgnoringLooks,
                             @JsonInclude(NON_NULL) Double ciHighPercentIgnoringLooks,
                             @JsonInclude(NON_NULL) Double pValueIgnoringLooks,
                             @JsonInclude(NON_NULL) Double holmPValueIgnoringLooks,
                             @JsonInclude(NON_NULL) Double adjustedPercent,
                             @JsonInclude(NON_NULL) Double adjustedCiLowPercent,
                             @JsonInclude(NON_NULL) Double adjustedCiHighPercent) {
    }

    /**
     * The windows per pair for the next run ({@link io.perflab.paired.NextRunPlan}): the design that detects the
     * smallest change in a run as long as this one, if the variance components stay as measured, beside the same
     * figure for this run's own design.
     *
     * @param windowsPerPair the windows of each variant per pair to use
     * @param pairs the pairs of that many windows that fit in this run's time
     * @param mdePercent the change that design detects with power 0.8
     * @param thisWindowsPerPair this run's windows of each variant per pair
     * @param thisDesignMdePercent the same model's figure for this run's pairs and windows per pair, which is the
     *     MDE of this run's test (the model is scaled to it)
     * @param kaliberaJonesWindowsPerPair Kalibera and Jones's m*, which minimises the variance per second; null when
     *     it is infinite (the pairs differ no more than their windows do)
     * @param betweenPairsClamped whether the between-pairs variance was estimated below 0 and taken as 0
     */
    public record NextRun(int windowsPerPair, long pairs, double mdePercent, int thisWindowsPerPair,
                          double thisDesignMdePercent, @JsonInclude(NON_NULL) Double kaliberaJonesWindowsPerPair,
                          boolean betweenPairsClamped) {
    }

    /**
     * Whether the two variants' JVMs were equally warmed up when measured ({@link io.perflab.paired.WarmupCheck}):
     * each one's least-squares change from its first window to its last, as a percentage, and the difference of
     * the two over the pairs with its interval and Holm-adjusted p (across the measured metrics).
     *
     * @param withPercent the mean over the pairs of {@code with}'s change from its first window to its last
     * @param withoutPercent the same for {@code without}
     * @param differencePercent 100·(e<sup>d̄</sup> − 1) of the mean difference of the two changes
     * @param ciLowPercent its interval, low end
     * @param ciHighPercent its interval, high end
     * @param holmPValue the paired test of the difference, Holm-adjusted
     * @param differs whether that p-value is below the experiment's α: the metric then carries a caveat
     */
    public record Warmup(double withPercent, double withoutPercent, double differencePercent, double ciLowPercent,
                         double ciHighPercent, double holmPValue, boolean differs) {
    }

    /**
     * What this experiment could have detected.
     *
     * @param mdePercent the smallest change (percent of baseline) this n and spread detect with power 0.8; of a
     *     paired design, the relative change its test over the pairs detects
     * @param runsPerVariantFor1Percent runs per variant needed to detect a 1 % change; of a paired design, pairs of
     *     as many windows
     */
    public record Sensitivity(Double mdePercent, Long runsPerVariantFor1Percent) {
    }
}
