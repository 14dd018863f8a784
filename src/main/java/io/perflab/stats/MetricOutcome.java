package io.perflab.stats;

import java.util.Optional;

/**
 * The analysis of one metric within an experiment: a result, or the reason none could be computed (e.g.
 * "data are essentially constant" for a counter that stayed 0).
 *
 * @param name metric key
 * @param direction which way it improves
 * @param result the comparison, judged with the Holm-adjusted p-value; empty when {@code constant} or {@code error}
 *     is present
 * @param constant the exact change of a metric that measured one value in every run of each side, which no test
 *     takes
 * @param error why the metric could not be compared
 */
public record MetricOutcome(String name, Direction direction, Optional<ComparisonResult> result,
        Optional<ConstantChange> constant, Optional<String> error) {

    /** A compared metric, or one that could not be compared. */
    public MetricOutcome(String name, Direction direction, Optional<ComparisonResult> result, Optional<String> error) {
        this(name, direction, result, Optional.empty(), error);
    }

    /** The verdict: the comparison's, the constant change's, or none for a metric not compared. */
    public Optional<Verdict> verdict() {
        return result.map(ComparisonResult::verdict).or(() -> constant.map(ConstantChange::verdict));
    }
}
