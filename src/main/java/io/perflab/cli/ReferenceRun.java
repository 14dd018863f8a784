package io.perflab.cli;

import io.perflab.paired.PairedSamples;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.Comparison;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Direction;
import io.perflab.stats.PairedAnalysis;
import io.perflab.stats.RelativeChange;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The long run of {@code calibrate --reference}: an experiment file of the same injection, whose estimates of each
 * metric's change are the effects a calibration's experiments should find ({@link EffectCalibration#reference()}).
 */
final class ReferenceRun {

    private ReferenceRun() {
    }

    /**
     * The reference of every metric of a long run's results, paired or fresh; empty when none can be estimated.
     */
    static Map<String, Double> effects(List<TrialResult> results) {
        Map<String, Double> reference = new LinkedHashMap<>();
        ComparisonOptions options = ComparisonOptions.defaults();
        boolean paired = PairedSamples.isPaired(results);
        PairedSamples samples = PairedSamples.of(results);
        List<String> metrics = paired ? samples.metrics() : MetricKeys.ENGINE;
        for (String metric : metrics) {
            try {
                Optional<RelativeChange> change = paired
                        ? Optional.of(PairedAnalysis.analyze(samples.windows(metric), options).relativeChange())
                        : Comparison.compare(Spread.values(results, metric, VariantName.WITH, 0, Integer.MAX_VALUE),
                                Spread.values(results, metric, VariantName.WITHOUT, 0, Integer.MAX_VALUE),
                                Direction.LOWER_IS_BETTER, options).relativeChange();
                change.ifPresent(c -> reference.put(metric, c.percent()));
            } catch (IllegalArgumentException notThere) {
                // a metric the long run cannot estimate has no reference
            }
        }
        return reference;
    }

    /** Why {@link #effects} of {@code results} is empty: what the long run lacks, for a message. */
    static String lacking(List<TrialResult> results) {
        if (results.isEmpty()) {
            return "it has no trials";
        }
        long ok = results.stream().filter(TrialResult::ok).count();
        if (ok == 0) {
            return "none of its " + results.size() + " trials succeeded";
        }
        for (VariantName side : VariantName.values()) {
            if (results.stream().noneMatch(r -> r.ok() && r.variant().equals(side.label()))) {
                return "it has no successful trial of the " + side.label() + " side";
            }
        }
        if (PairedSamples.isPaired(results)) {
            return "no metric's change can be estimated from its " + PairedSamples.of(results).pairs() + " pair(s) "
                    + "with successful windows (at least 2 are needed, whose log ratios differ)";
        }
        boolean engine = results.stream().anyMatch(r -> r.ok() && MetricKeys.ENGINE.stream()
                .anyMatch(r.metrics()::containsKey));
        return engine ? "no metric of the engine's has the 2 successful trials per side, not all alike, that an "
                + "estimate needs" : "its trials measure none of the engine's metrics (" + String.join(", ",
                MetricKeys.ENGINE) + "): it is the file of a run of perflab ab or calibrate with the same injection";
    }
}
