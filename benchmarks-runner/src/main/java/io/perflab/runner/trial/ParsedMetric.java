package io.perflab.runner.trial;

import java.util.List;
import java.util.Objects;

/**
 * A metric a command trial read from its own output (rpc-bench's report, JMH's JSON, Go's benchmark lines…): its
 * unit and direction as the output's format says, and every value the run printed for it. The trial's sample of
 * the metric is {@link #mean()}: a format with several values per run (JMH iterations, Go's {@code -count}) gives one
 * sample per trial, since the runs, not the iterations inside one, are the independent replicates.
 *
 * @param unit e.g. {@code ops/s} or {@code us}; empty when the output did not say
 * @param higherIsBetter true for throughput-like metrics
 * @param values every value of the run, in the order printed; at least one, all finite
 */
public record ParsedMetric(String unit, boolean higherIsBetter, List<Double> values) {

    public ParsedMetric {
        unit = Objects.requireNonNullElse(unit, "");
        values = List.copyOf(values);
        if (values.isEmpty()) {
            throw new IllegalArgumentException("a parsed metric needs at least one value");
        }
        for (double value : values) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("a parsed metric's values must be finite, got " + value);
            }
        }
    }

    /** The trial's sample: the mean of the run's values. */
    public double mean() {
        double sum = 0;
        for (double value : values) {
            sum += value;
        }
        return sum / values.size();
    }
}
