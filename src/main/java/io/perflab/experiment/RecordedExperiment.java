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
 * @param createdBy who uploaded it: a user's name, or {@code token:} and an API token's name
 * @param createdByToken the id of the stored API token that uploaded it; null for a user or the bootstrap token
 * @param revision which commit was measured
 * @param machine what it ran on, as the benchmark tool described it (JSON-able values)
 * @param labels a user's label of each side that has one
 * @param metrics unit and direction of every metric of the runs
 * @param runs every run of both sides, ordinals unique
 * @param warnings what the upload's reader said people should know about the numbers (a debug build, runs that
 *     exited non-zero), in their terms; empty when all is well
 * @param configurations the settings every sample of a side ran with, as the benchmark printed them; a side
 *     without any is left out
 */
public record RecordedExperiment(String name, String benchmark, String createdBy, Long createdByToken,
                                 Instant createdAt, SourceRevision revision, Map<String, Object> machine,
                                 List<String> tags, Map<VariantName, String> labels,
                                 Map<String, MetricDefinition> metrics, List<Run> runs, List<String> warnings,
                                 Map<VariantName, Map<String, String>> configurations) {

    public RecordedExperiment {
        Objects.requireNonNull(revision, "revision");
        machine = Map.copyOf(machine);
        tags = List.copyOf(tags);
        metrics = Map.copyOf(metrics);
        runs = List.copyOf(runs);
        warnings = List.copyOf(warnings);
        configurations = Map.copyOf(configurations);
    }

    /** A recorded experiment whose source said nothing besides its samples, uploaded with no stored API token. */
    public RecordedExperiment(String name, String benchmark, String createdBy, Instant createdAt,
                              SourceRevision revision, Map<String, Object> machine, List<String> tags,
                              Map<VariantName, String> labels, Map<String, MetricDefinition> metrics,
                              List<Run> runs) {
        this(name, benchmark, createdBy, null, createdAt, revision, machine, tags, labels, metrics, runs, List.of(),
                Map.of());
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
