package io.perflab.cli;

import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Direction;
import io.perflab.stats.ExperimentAnalysis;
import io.perflab.stats.MetricInput;
import io.perflab.stats.Sample;
import io.perflab.stats.format.ComparisonTable;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The end of {@code perflab ab}: the same verdict table as {@code perflab compare} over the successful trials,
 * every metric compared with Welch's t-test and Holm's adjustment across the metrics.
 */
final class AbSummary {

    private AbSummary() {
    }

    static String format(List<TrialResult> results) {
        Set<String> keys = new LinkedHashSet<>();
        results.stream().filter(TrialResult::ok).forEach(r -> keys.addAll(r.metrics().keySet()));
        if (keys.isEmpty()) {
            return "No successful trial: nothing to compare.\n";
        }
        List<String> ordered = new ArrayList<>();
        for (String key : MetricKeys.ENGINE) {
            if (keys.remove(key)) {
                ordered.add(key);
            }
        }
        ordered.addAll(keys);
        List<MetricInput> inputs = new ArrayList<>();
        for (String key : ordered) {
            Direction direction = higherIsBetter(results, key) ? Direction.HIGHER_IS_BETTER
                    : Direction.LOWER_IS_BETTER;
            inputs.add(new MetricInput(key, direction, sample(results, VariantName.WITH, key),
                    sample(results, VariantName.WITHOUT, key)));
        }
        ComparisonOptions options = ComparisonOptions.defaults();
        String table = ComparisonTable.render(ExperimentAnalysis.analyze(inputs, options), options);
        if (ordered.contains(MetricKeys.USER_CPU_US_PER_REQ)) {
            table += "Per-request CPU and context switches cover client and server threads of each trial JVM, "
                    + "less the JIT compiler threads.\n";
        }
        return table;
    }

    /** As the trials that read {@code key} from their output say, else as {@link MetricKeys#lowerIsBetter} says. */
    private static boolean higherIsBetter(List<TrialResult> results, String key) {
        return results.stream().filter(r -> r.parsedMetrics().containsKey(key)).findFirst()
                .map(r -> r.higherIsBetter(key)).orElse(!MetricKeys.lowerIsBetter(key));
    }

    /** One variant's values of a metric over its successful trials, with their plan ordinals (drift check). */
    private static Sample sample(List<TrialResult> results, VariantName variant, String key) {
        return Sample.of(results.stream()
                .filter(r -> r.ok() && r.variant().equals(variant.label()) && r.metrics().get(key) != null
                        && Double.isFinite(r.metrics().get(key)))
                .toList(), r -> r.metrics().get(key), TrialResult::ordinal);
    }
}
