package io.perflab.experiment;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An experiment as the API shows it.
 *
 * @param queuePosition 1-based position in the host's queue while {@code QUEUED}, else null
 * @param etaSeconds estimated seconds until the plan is done (mean trial time × trials left), while it runs
 * @param optionDiff engine options that differ: name → {without, with}
 * @param results per-metric comparison; empty until both variants have two successful runs
 */
public record ExperimentView(long id, String name, String description, String kind, String status, String preset,
                             String benchmark, Long queuePosition, Progress progress, Long etaSeconds,
                             Instant createdAt, Instant startedAt, Instant finishedAt, String createdBy, String error,
                             Plan plan, Map<String, String> workload, Map<String, VariantRecord> variants,
                             Map<String, Map<String, String>> optionDiff, List<MetricComparison> results) {

    /** Runs of the plan that are stored, of which failed, and the plan's total. */
    public record Progress(int completedRuns, int totalRuns, int failedRuns) {
    }

    /** The plan's settings. */
    public record Plan(int runsPerVariant, String order, long seed, int trialTimeoutSeconds, int maxFailures) {
    }
}
