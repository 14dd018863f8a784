package io.perflab.upload;

import java.util.List;

/**
 * The uploaded values of one metric of one variant.
 *
 * @param unit e.g. {@code ns/op}; null when the upload did not say (an empty unit says nothing either)
 * @param higherIsBetter true or false as the uploader said; null when it did not say (the metric's known
 *     definition decides, else lower is better)
 * @param values in the order they were measured
 */
public record MetricSamples(String unit, Boolean higherIsBetter, List<Double> values) {

    public MetricSamples {
        unit = unitOrNull(unit);
        values = List.copyOf(values);
    }

    /** {@code unit}, or null when it is null or empty: an empty unit column or field gives no unit. */
    static String unitOrNull(String unit) {
        return unit == null || unit.isEmpty() ? null : unit;
    }

    /** A unit as a message names it: {@code unit 'ms'}, or {@code no unit} for null. */
    static String describeUnit(String unit) {
        return unit == null ? "no unit" : "unit '" + UploadText.excerpt(unit) + "'";
    }
}
