package io.perflab.experiment;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.perflab.paired.PlacementCheck;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.system.ApiValues;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An experiment as the API shows it.
 *
 * @param queuePosition while a claim could take it ({@code QUEUED}, or {@code INTERRUPTED} with its agent lost and
 *     waiting for the next agent to resume it), 1 + the older experiments a claim would take before it: those that a
 *     live host able to run it may run too (labels, command experiments and platform weighed as a claim weighs
 *     them); while no live host can run it ({@code waitingForHost} says why), those that a host able to run it could
 *     run too, labels weighed. The most that can go before it, not a promise of its turn; else null
 *     ({@link ExperimentRepository.QueuePlace})
 * @param progress runs stored of the plan's; in a paired design, a stored pair counts as all its windows
 * @param etaSeconds estimated seconds until the plan is done (mean trial or pair time × those left), while it runs;
 *     the {@code run} events carry it too ({@link TimeLeft})
 * @param createdByToken the stored API token that started it ({@link ExperimentRecord#createdByToken}), for the
 *     page to tell who controls it; not in the JSON
 * @param optionDiff every setting that differs between the variants (engine options, {@code jvmArgs}, a command's
 *     {@code command}, {@code metricsFormat}, {@code directory} and {@code environment}): name → {without, with}
 * @param results per-metric comparison; empty until both variants have two successful runs
 * @param design {@code fresh}, {@code duet} or {@code alternating}
 * @param paired a paired design's pairs, targets, looks and stop reason; null (left out of JSON) for the fresh design
 * @param hostLabels the labels a host must carry to run it; empty: any host
 * @param agents the agents that ran its trials or run it now, in the order they first claimed it
 * @param waitingForHost while a claim could take it (as {@code queuePosition}), why no live host can, whatever its
 *     queue position; null when one can, or when no claim could take it
 * @param summary in a list's entries only (left out of one experiment's JSON, whose {@code results} say it all): the
 *     headline metrics' verdicts and how many metrics were compared and regressed, from the digest stored for its
 *     data; for an upload of one side compared with a base when it came in, those of that comparison, naming the
 *     base ({@code baseExperimentId}, {@code baseCommit})
 */
public record ExperimentView(long id, String name, @Schema(nullable = true) String description,
                             @ApiValues(value = ExperimentKind.class, lowerCase = true) String kind,
                             @ApiValues(ExperimentStatus.class) String status,
                             @Schema(nullable = true) String preset,
                             @Schema(nullable = true) String benchmark,
                             @Schema(description = """
                                     While a claim could take it (QUEUED, or INTERRUPTED with its agent lost and \
                                     waiting for the next agent to resume it): 1 + the older experiments a claim would \
                                     take before it, those that a live host able to run it may run too (its labels, \
                                     whether it runs command experiments and its platform weighed). While no live host \
                                     can run it (waitingForHost says why): those that a host able to run it could run \
                                     too, labels weighed. The most that can go before it, not a promise of its turn. \
                                     Null otherwise.""") Long queuePosition,
                             Progress progress,
                             Long etaSeconds, Instant createdAt, @Schema(nullable = true) Instant startedAt,
                             @Schema(nullable = true) Instant finishedAt, @Schema(nullable = true) String createdBy,
                             @JsonIgnore @Schema(hidden = true) Long createdByToken,
                             @Schema(nullable = true) String error, Plan plan, Map<String, String> workload,
                             Map<String, VariantRecord> variants, Map<String, Map<String, String>> optionDiff,
                             List<MetricComparison> results,
                             @ApiValues(value = ExperimentDesign.class, written = "label") String design,
                             @JsonInclude(JsonInclude.Include.NON_NULL) Paired paired,
                             Map<String, String> hostLabels, List<AgentRun> agents,
                             @Schema(nullable = true) HostWait waitingForHost,
                             @JsonInclude(JsonInclude.Include.NON_NULL) @Schema(description = """
                                     In a list's entries only: what the list shows of the results (the headline \
                                     metrics' verdicts, how many metrics were compared and regressed). For an upload \
                                     of one side compared with a base when it came in, those of its comparison with \
                                     that base, named by baseExperimentId and baseCommit (null otherwise).""")
                             ResultsDigest summary) {

    /**
     * An experiment as one experiment's view shows it, without a list's summary of its results, started by no stored
     * API token.
     */
    public ExperimentView(long id, String name, String description, String kind, String status, String preset,
                          String benchmark, Long queuePosition, Progress progress, Long etaSeconds,
                          Instant createdAt, Instant startedAt, Instant finishedAt, String createdBy, String error,
                          Plan plan, Map<String, String> workload, Map<String, VariantRecord> variants,
                          Map<String, Map<String, String>> optionDiff, List<MetricComparison> results,
                          String design, Paired paired, Map<String, String> hostLabels, List<AgentRun> agents,
                          HostWait waitingForHost) {
        this(id, name, description, kind, status, preset, benchmark, queuePosition, progress, etaSeconds, createdAt,
                startedAt, finishedAt, createdBy, null, error, plan, workload, variants, optionDiff, results, design,
                paired, hostLabels, agents, waitingForHost, null);
    }

    /** An experiment no agent has run, that asks for no host labels. */
    public ExperimentView(long id, String name, String description, String kind, String status, String preset,
                          String benchmark, Long queuePosition, Progress progress, Long etaSeconds,
                          Instant createdAt, Instant startedAt, Instant finishedAt, String createdBy, String error,
                          Plan plan, Map<String, String> workload, Map<String, VariantRecord> variants,
                          Map<String, Map<String, String>> optionDiff, List<MetricComparison> results,
                          String design, Paired paired) {
        this(id, name, description, kind, status, preset, benchmark, queuePosition, progress, etaSeconds, createdAt,
                startedAt, finishedAt, createdBy, error, plan, workload, variants, optionDiff, results, design, paired,
                Map.of(), List.of(), null);
    }

    /** An experiment of the fresh design. */
    public ExperimentView(long id, String name, String description, String kind, String status, String preset,
                          String benchmark, Long queuePosition, Progress progress, Long etaSeconds,
                          Instant createdAt, Instant startedAt, Instant finishedAt, String createdBy, String error,
                          Plan plan, Map<String, String> workload, Map<String, VariantRecord> variants,
                          Map<String, Map<String, String>> optionDiff, List<MetricComparison> results) {
        this(id, name, description, kind, status, preset, benchmark, queuePosition, progress, etaSeconds, createdAt,
                startedAt, finishedAt, createdBy, error, plan, workload, variants, optionDiff, results, "fresh", null);
    }

    /**
     * An agent that ran trials of the experiment, or runs it now.
     *
     * @param agentId the agent
     * @param name its name
     * @param host its host name
     * @param labels its host's labels, {@code k=v,k=v}
     * @param cpuModel its host's CPU model, empty if it did not say
     * @param trials the trials (in a paired design, windows) of the experiment it stored
     * @param running whether it runs the experiment now
     */
    public record AgentRun(long agentId, String name, String host, String labels, String cpuModel, int trials,
                           boolean running) {
    }

    /** Runs of the plan that are stored, of which failed, and the plan's total. */
    public record Progress(int completedRuns, int totalRuns, int failedRuns) {
    }

    /** The plan's settings; in a paired design {@code runsPerVariant} is the pairs planned and order is unused. */
    public record Plan(int runsPerVariant, @ApiValues(value = TrialOrder.class, written = "label") String order,
                       long seed, int trialTimeoutSeconds, int maxFailures) {
    }

    /**
     * A paired design's plan and state.
     *
     * @param pairs the pairs planned: the most the experiment runs
     * @param windowsPerPair windows of each variant per pair
     * @param completedPairs pairs stored, failed ones included
     * @param failedPairs pairs that failed (a failure of either JVM fails both sides)
     * @param targets the sequential stopping rule's targets, e.g. {@code cpu_us_per_req:1.5%}
     * @param budgetSeconds the time budget, null when unlimited
     * @param stopReason why its stopping rule stopped the experiment (early, or at its last look), else null
     * @param looks every look of the stopping rule, in the order made
     * @param placement how the stored pairs' windows were placed and timed (skew, CPU halves, who went first)
     */
    public record Paired(int pairs, int windowsPerPair, int completedPairs, int failedPairs, List<String> targets,
                         Integer budgetSeconds, @Schema(nullable = true) String stopReason,
                         List<SequentialLookRepository.LookRecord> looks,
                         PlacementCheck placement) {

        public Paired {
            targets = List.copyOf(targets);
            looks = List.copyOf(looks);
        }
    }
}
