package io.perflab.experiment;

import io.perflab.runner.experiment.VariantName;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An experiment that ran elsewhere and is recorded whole — a CI upload: stored at once as {@code COMPLETED}, kind
 * {@code UPLOAD}, with its runs and samples.
 *
 * @param revision which commit was measured
 * @param machine what it ran on, as the benchmark tool described it (JSON-able values)
 * @param labels a user's label of each side that has one
 * @param metrics unit and direction of every metric of the runs
 * @param runs every run of both sides, ordinals unique
 */
public record RecordedExperiment(String name, String benchmark, String createdBy, Instant createdAt,
                                 SourceRevision revision, Map<String, Object> machine, List<String> tags,
                                 Map<VariantName, String> labels, Map<String, MetricDefinition> metrics,
                                 List<Run> runs) {

    public RecordedExperiment {
        Objects.requireNonNull(revision, "revision");
        machine = Map.copyOf(machine);
        tags = List.copyOf(tags);
        metrics = Map.copyOf(metrics);
        runs = List.copyOf(runs);
    }

    /** Runs per variant of the plan it stands for: the larger side's. */
    public int runsPerVariant() {
        return (int) java.util.Arrays.stream(VariantName.values())
                .mapToLong(v -> runs.stream().filter(r -> r.variant() == v).count()).max().orElse(0);
    }

    /** One run: its side, its place and its samples (metric key → value). */
    public record Run(VariantName variant, int ordinal, Map<String, Double> samples) {
    }
}
