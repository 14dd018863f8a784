package io.perflab.stats;

import java.util.List;
import java.util.Optional;

/**
 * Everything PerfLab says about one metric of {@code with} against {@code without}. Immutable.
 *
 * @param with summary of the {@code with} group (x)
 * @param without summary of the {@code without} (baseline) group (y)
 * @param welch Welch's t-test
 * @param student Student's pooled t-test
 * @param mannWhitney the rank-sum test with the Hodges–Lehmann shift
 * @param effectSize Cohen's d and Hedges' g
 * @param relativeChange change in percent of the baseline with Fieller's interval; empty when the baseline mean
 *     is 0
 * @param equivalence TOST at the options' margin; empty when the baseline mean is 0
 * @param power minimum detectable effect and runs needed; empty when the baseline mean is 0
 * @param warnings caveats, in the order found
 * @param decision the verdict with its reason
 * @param direction which way the metric improves
 * @param options the settings used
 */
public record ComparisonResult(Summary with, Summary without, TTestResult welch, TTestResult student,
        RankSumResult mannWhitney, EffectSize effectSize, Optional<RelativeChange> relativeChange,
        Optional<Equivalence> equivalence, Optional<Power> power, List<StatWarning> warnings, Decision decision,
        Direction direction, ComparisonOptions options) {

    public ComparisonResult {
        warnings = List.copyOf(warnings);
    }

    /** The verdict. */
    public Verdict verdict() {
        return decision.verdict();
    }

    /**
     * This result judged with another p-value, e.g. the Holm-adjusted one of a multi-metric experiment.
     *
     * @param adjustedPValue the Welch p-value after adjustment, in [0, 1]
     */
    public ComparisonResult withAdjustedPValue(double adjustedPValue) {
        Decision d = Verdicts.decide(adjustedPValue, true, welch, relativeChange, equivalence, power, direction,
                options);
        return new ComparisonResult(with, without, welch, student, mannWhitney, effectSize, relativeChange,
                equivalence, power, warnings, d, direction, options);
    }
}
