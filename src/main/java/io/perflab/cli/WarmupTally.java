package io.perflab.cli;

import io.perflab.paired.PairedSamples;
import io.perflab.paired.WarmupCheck;
import io.perflab.stats.ComparisonOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * How many experiments of a paired calibration run carried the warmup caveat ({@link WarmupCheck}) and on which
 * metrics: in an A/A run, the check's own false alarms.
 */
final class WarmupTally {

    private WarmupTally() {
    }

    /**
     * The line {@code perflab calibrate} prints, e.g. {@code warmup: 1 of 12 experiments carried the caveat …
     * (cpu_us_per_req 1)}; empty when no experiment had two windows per pair to tell a trend from.
     *
     * @param experiment the windows of experiment {@code i}, for i from 0 to {@code experiments} − 1
     */
    static String line(IntFunction<PairedSamples> experiment, int experiments, double alpha, boolean aa) {
        ComparisonOptions options = ComparisonOptions.defaults().withAlpha(alpha);
        Map<String, Integer> byMetric = new LinkedHashMap<>();
        int judged = 0;
        int caveated = 0;
        for (int i = 0; i < experiments; i++) {
            PairedSamples samples = experiment.apply(i);
            Map<String, WarmupCheck.Judged> warmup = WarmupCheck.judge(samples, samples.metrics(), options);
            if (warmup.isEmpty()) {
                continue;
            }
            judged++;
            List<String> differ = warmup.entrySet().stream().filter(e -> e.getValue().differs(alpha))
                    .map(Map.Entry::getKey).toList();
            caveated += differ.isEmpty() ? 0 : 1;
            differ.forEach(m -> byMetric.merge(m, 1, Integer::sum));
        }
        if (judged == 0) {
            return "";
        }
        StringBuilder metrics = new StringBuilder();
        byMetric.forEach((m, n) -> metrics.append(metrics.length() == 0 ? " (" : ", ").append(m).append(' ').append(n));
        return String.format(Locale.ROOT, "warmup: %d of %d experiments carried the caveat that their variants warmed "
                + "up differently across the windows%s%s.%n", caveated, judged, metrics.length() == 0 ? "" : metrics
                + ")", aa ? "; in an A/A run every one is a false alarm" : "");
    }
}
