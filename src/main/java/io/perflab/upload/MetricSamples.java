package io.perflab.upload;

import java.util.List;

/**
 * The uploaded values of one metric of one variant.
 *
 * @param unit e.g. {@code ns/op}; null when the upload did not say
 * @param higherIsBetter true or false as the uploader said; null when it did not say (the metric's known
 *     definition decides, else lower is better)
 * @param values in the order they were measured
 */
public record MetricSamples(String unit, Boolean higherIsBetter, List<Double> values) {

    public MetricSamples {
        values = List.copyOf(values);
    }
}
