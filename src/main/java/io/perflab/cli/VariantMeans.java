package io.perflab.cli;

import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Per-variant mean, standard deviation and count of every metric over the successful trials: the summary of
 * {@code ab} until the statistics table replaces it.
 */
final class VariantMeans {

    private VariantMeans() {
    }

    static String format(List<TrialResult> results) {
        Set<String> keys = new LinkedHashSet<>();
        for (TrialResult result : results) {
            if (result.ok()) {
                keys.addAll(result.metrics().keySet());
            }
        }
        if (keys.isEmpty()) {
            return "No successful trial: nothing to summarize.\n";
        }
        List<String> ordered = new ArrayList<>();
        for (String key : MetricKeys.ENGINE) {
            if (keys.remove(key)) {
                ordered.add(key);
            }
        }
        ordered.addAll(keys);
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%-34s %-30s %-30s%n", "metric (successful trials)",
                "without: mean ± sd (n)", "with: mean ± sd (n)"));
        for (String key : ordered) {
            s.append(String.format(Locale.ROOT, "%-34s %-30s %-30s%n", key, cell(results, "without", key),
                    cell(results, "with", key)));
        }
        if (ordered.contains(MetricKeys.USER_CPU_US_PER_REQ)) {
            s.append("Per-request CPU and context switches cover client and server threads of each trial JVM.\n");
        }
        return s.toString();
    }

    private static String cell(List<TrialResult> results, String variant, String key) {
        double sum = 0;
        double sumSquares = 0;
        int n = 0;
        List<Double> values = new ArrayList<>();
        for (TrialResult result : results) {
            Double value = result.ok() && result.variant().equals(variant) ? result.metrics().get(key) : null;
            if (value != null && Double.isFinite(value)) {
                values.add(value);
                sum += value;
                n++;
            }
        }
        if (n == 0) {
            return "-";
        }
        double mean = sum / n;
        for (double value : values) {
            sumSquares += (value - mean) * (value - mean);
        }
        String sd = n < 2 ? "-" : number(Math.sqrt(sumSquares / (n - 1)));
        return number(mean) + " ± " + sd + " (" + n + ")";
    }

    private static String number(double value) {
        double magnitude = Math.abs(value);
        if (magnitude >= 1000 || value == 0) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        return String.format(Locale.ROOT, "%.4g", value);
    }
}
