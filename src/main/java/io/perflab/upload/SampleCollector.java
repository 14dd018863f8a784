package io.perflab.upload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Gathers values per metric key in reading order, keeping the first unit and direction seen for a key. */
final class SampleCollector {

    private record Entry(String unit, Boolean higherIsBetter, List<Double> values) {
    }

    private final Map<String, Entry> entries = new LinkedHashMap<>();

    void add(String key, String unit, Boolean higherIsBetter, double value) {
        entries.computeIfAbsent(key, k -> new Entry(unit, higherIsBetter, new ArrayList<>())).values().add(value);
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
        String u = unit.toLowerCase(java.util.Locale.ROOT);
        return u.startsWith("ops/") || u.endsWith("/s") || u.endsWith("/sec") || u.endsWith("per_second");
    }
}
