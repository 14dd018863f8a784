package io.perflab.stats;

import java.util.Optional;

/**
 * The analysis of one metric within an experiment: a result, or the reason none could be computed (e.g.
 * "data are essentially constant" for a counter that stayed 0).
 *
 * @param name metric key
 * @param direction which way it improves
 * @param result the comparison, judged with the Holm-adjusted p-value; empty when {@code error} is present
 * @param error why the metric could not be compared
 */
public record MetricOutcome(String name, Direction direction, Optional<ComparisonResult> result,
        Optional<String> error) {
}
