package io.perflab.paired;

import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.ConstantChange;
import io.perflab.stats.Direction;
import io.perflab.stats.PairWindows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The windows of a paired experiment as the statistics take them: per pair, window j of {@code with} beside window j
 * of {@code without} ({@link PairWindows}), for each metric. Only successful window results count; the records of
 * a failed pair, and results without a pair (a fresh design), are left out. A window measured on one side only is
 * NaN on the other, which {@link io.perflab.stats.PairedAnalysis} leaves out on both.
 */
public final class PairedSamples {

    /** Pair index → window index → variant → metrics. */
    private final Map<Integer, Map<Integer, Map<VariantName, Map<String, Double>>>> pairs;
    private final List<String> metrics;

    private PairedSamples(Map<Integer, Map<Integer, Map<VariantName, Map<String, Double>>>> pairs,
                          List<String> metrics) {
        this.pairs = pairs;
        this.metrics = metrics;
    }

    /** The paired windows among {@code results}. */
    public static PairedSamples of(List<TrialResult> results) {
        Map<Integer, Map<Integer, Map<VariantName, Map<String, Double>>>> pairs = new TreeMap<>();
        Set<String> keys = new LinkedHashSet<>();
        for (TrialResult r : results) {
            if (!r.ok() || r.pair() == null || r.pair().window() == null) {
                continue;
            }
            VariantName variant = VariantName.parse(r.variant());
            pairs.computeIfAbsent(r.pair().index(), k -> new TreeMap<>())
                    .computeIfAbsent(r.pair().window(), k -> new java.util.EnumMap<>(VariantName.class))
                    .put(variant, r.metrics());
            keys.addAll(r.metrics().keySet());
        }
        List<String> ordered = new ArrayList<>();
        for (String key : MetricKeys.ENGINE) {
            if (keys.remove(key)) {
                ordered.add(key);
            }
        }
        for (String key : MetricKeys.COMMAND) {
            if (keys.remove(key)) {
                ordered.add(key);
            }
        }
        ordered.addAll(keys);
        return new PairedSamples(pairs, List.copyOf(ordered));
    }

    /** The paired windows among {@code results} of the pairs with an index from {@code from} to {@code to} − 1. */
    public static PairedSamples ofPairs(List<TrialResult> results, int from, int to) {
        return of(results.stream().filter(r -> r.pair() != null && r.pair().index() >= from
                && r.pair().index() < to).toList());
    }

    /** Whether any result carried a pair: the experiment had a paired design. */
    public static boolean isPaired(List<TrialResult> results) {
        return results.stream().anyMatch(r -> r.pair() != null);
    }

    /** The metrics measured, in DESIGN's order, then any others. */
    public List<String> metrics() {
        return metrics;
    }

    /** Pairs with at least one successful window. */
    public int pairs() {
        return pairs.size();
    }

    /** The most windows of one variant in a pair: M, when none is missing. */
    public int windowsPerPair() {
        return pairs.values().stream().mapToInt(Map::size).max().orElse(0);
    }

    /**
     * Each pair's windows of {@code metric}, in pair order, with its recorded index; NaN where a window lacks the
     * metric on one side.
     */
    public List<PairWindows> windows(String metric) {
        List<PairWindows> list = new ArrayList<>();
        for (Map.Entry<Integer, Map<Integer, Map<VariantName, Map<String, Double>>>> entry : pairs.entrySet()) {
            Map<Integer, Map<VariantName, Map<String, Double>>> pair = entry.getValue();
            int length = ((TreeMap<Integer, ?>) pair).lastKey() + 1;
            double[] with = new double[length];
            double[] without = new double[length];
            Arrays.fill(with, Double.NaN);
            Arrays.fill(without, Double.NaN);
            pair.forEach((window, sides) -> {
                with[window] = value(sides.get(VariantName.WITH), metric);
                without[window] = value(sides.get(VariantName.WITHOUT), metric);
            });
            list.add(PairWindows.of(entry.getKey(), with, without));
        }
        return list;
    }

    /** The mean of {@code metric} over every window of {@code variant}: the figure a table shows beside the change. */
    public double mean(String metric, VariantName variant) {
        return Arrays.stream(values(metric, variant)).average().orElse(Double.NaN);
    }

    /**
     * The exact change of {@code metric} when every window of each side that measured it measured one value (bytes
     * or allocations per operation of a command's output), at least two on each side; else empty. No test takes such
     * a metric (its log ratios are constant), and none is needed.
     */
    public Optional<ConstantChange> constantChange(String metric, Direction direction) {
        return ConstantChange.of(values(metric, VariantName.WITH), values(metric, VariantName.WITHOUT), direction, 2,
                "window");
    }

    private double[] values(String metric, VariantName variant) {
        return pairs.values().stream().flatMap(p -> p.values().stream())
                .mapToDouble(sides -> value(sides.get(variant), metric)).filter(Double::isFinite).toArray();
    }

    /** The pairs with at least one window of {@code variant} that measured {@code metric}. */
    public int pairsMeasuring(String metric, VariantName variant) {
        return (int) pairs.values().stream().filter(p -> p.values().stream()
                .anyMatch(sides -> Double.isFinite(value(sides.get(variant), metric)))).count();
    }

    private static double value(Map<String, Double> metrics, String metric) {
        if (metrics == null) {
            return Double.NaN;
        }
        Double value = metrics.get(metric);
        return value == null || !Double.isFinite(value) ? Double.NaN : value;
    }
}
