package io.perflab.upload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Gathers values per metric key in reading order, keeping the first unit and direction seen for a key (a value in
 * another unit, or without one beside values in one, is refused), and counts them against the upload's limits as
 * they come.
 */
final class SampleCollector {

    private record Entry(String unit, Boolean higherIsBetter, List<Double> values) {
    }

    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private final UploadLimits.Counter limits;

    SampleCollector(UploadLimits.Counter limits) {
        this.limits = limits;
    }

    void add(String key, String unit, Boolean higherIsBetter, double value) {
        add(key, unit, higherIsBetter, value, null, null);
    }

    void add(String key, String unit, Boolean higherIsBetter, double value, String where) {
        add(key, unit, higherIsBetter, value, where, null);
    }

    /**
     * Adds {@code value} to metric {@code key}. A value in another unit than the metric's earlier ones is refused:
     * pooled, 1.6 s would count as 1.6 ms. So is a value without a unit beside values in one, and the reverse: which
     * unit it is in is not known. A format with a default unit gives that one instead of none.
     *
     * @param unit the value's unit; null or "" for none
     * @param where where the value is, to begin the message with (e.g. "CSV line 3"), or null
     * @param unitField where the value's unit is, for a refusal's field ({@code benchmarks[2].time_unit}), or null
     */
    void add(String key, String unit, Boolean higherIsBetter, double value, String where, String unitField) {
        unit = MetricSamples.unitOrNull(unit);
        Entry entry = entries.get(key);
        if (entry == null) {
            limits.metric(key);
            entry = new Entry(unit, higherIsBetter, new ArrayList<>());
            entries.put(key, entry);
        } else if (!Objects.equals(unit, entry.unit())) {
            throw new InvalidUploadException(unitField, (where == null ? "Metric '" : where + ": metric '")
                    + UploadText.excerpt(key) + "' has " + MetricSamples.describeUnit(unit) + " here and "
                    + MetricSamples.describeUnit(entry.unit()) + " before; " + (unit == null || entry.unit() == null
                    ? "a value without a unit cannot be pooled with values in one. Give every value its unit."
                    : "values in different units cannot be pooled. Give each unit its own metric, or convert the "
                            + "values to one unit."));
        }
        limits.samples(1);
        entry.values().add(value);
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    Map<String, MetricSamples> metrics() {
        Map<String, MetricSamples> metrics = new LinkedHashMap<>();
        entries.forEach((key, e) -> metrics.put(key, new MetricSamples(e.unit(), e.higherIsBetter(), e.values())));
        return metrics;
    }

    /** Units of rates ("MB/s", "ops/ms", "items/s") mean higher is better; everything else lower. */
    static boolean isRate(String unit) {
        String u = unit.toLowerCase(Locale.ROOT);
        return u.startsWith("ops/") || u.endsWith("/s") || u.endsWith("/sec") || u.endsWith("per_second");
    }

    /** {@code true} for a rate unit, else null: the metric's known definition (or lower-is-better) decides. */
    static Boolean higherIfRate(String unit) {
        return unit != null && isRate(unit) ? Boolean.TRUE : null;
    }
}
