package io.perflab.paired;

import io.perflab.runner.experiment.PairPlacement;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Pairs of a paired design made up in tests: given windows on each side, of one metric or of several alike. */
public final class PairedFixtures {

    private PairedFixtures() {
    }

    /** Pair {@code index} whose window j measured {@code without[j]} and {@code with[j]} of {@code metric}. */
    public static PairResult pair(int index, String metric, double[] without, double[] with) {
        return pair(index, List.of(metric), without, with);
    }

    /** Pair {@code index} whose window j measured {@code without[j]} and {@code with[j]} of each of {@code metrics}. */
    public static PairResult pair(int index, List<String> metrics, double[] without, double[] with) {
        List<TrialResult> results = new ArrayList<>();
        Instant start = Instant.parse("2025-05-01T10:00:00Z").plusSeconds(20L * index);
        for (int j = 0; j < without.length; j++) {
            results.add(window(index, j, VariantName.WITHOUT, metrics, without[j], start));
            results.add(window(index, j, VariantName.WITH, metrics, with[j], start));
        }
        return new PairResult(index, TrialStatus.OK, new PairPlacement("0", "1", VariantName.WITHOUT), results, start,
                start.plusSeconds(20), Duration.ofSeconds(14), Duration.ofSeconds(6), null);
    }

    /** Pair {@code index}, failed on both sides. */
    public static PairResult failedPair(int index) {
        Instant start = Instant.parse("2025-05-01T10:00:00Z").plusSeconds(20L * index);
        List<TrialResult> results = List.of(
                new TrialResult("without", 4 * index, TrialStatus.FAILED, start, start, 1, Map.of(), Map.of(),
                        "its pair failed", new PairPosition(index, null, "0", null, null, true)),
                new TrialResult("with", 4 * index + 1, TrialStatus.FAILED, start, start, 2, Map.of(), Map.of(),
                        "the with JVM: crashed", new PairPosition(index, null, "1", null, null, false)));
        return new PairResult(index, TrialStatus.FAILED, new PairPlacement("0", "1", VariantName.WITHOUT), results,
                start, start.plusSeconds(5), Duration.ZERO, Duration.ZERO, "the with JVM: crashed");
    }

    private static TrialResult window(int pair, int window, VariantName side, List<String> metrics, double value,
                                      Instant start) {
        Map<String, Double> values = new java.util.LinkedHashMap<>();
        metrics.forEach(metric -> values.put(metric, value));
        return new TrialResult(side.label(), (pair * 10 + window) * 2 + side.ordinal(), TrialStatus.OK, start,
                start.plusSeconds(3), 100 + side.ordinal(), values,
                Map.of("pair_setup_seconds", "14.000", "measuring_share_seconds", "1.500"), null,
                new PairPosition(pair, window, side == VariantName.WITH ? "1" : "0", 1_000L * window, 0L,
                        side == VariantName.WITHOUT));
    }
}
