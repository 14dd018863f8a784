package io.perflab.agent;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.runner.experiment.Variant;
import io.perflab.runner.json.RunnerJson;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.rpcbench.WorkloadSettings;
import io.perflab.runner.trial.ParsedMetric;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.swagger.v3.oas.annotations.media.Schema;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The messages between an agent and the service ({@code /api/v1/agents}), shared by both sides so that they cannot
 * drift apart. An agent registers, polls for an {@link Assignment}, posts each finished trial as a {@link
 * PostedTrial}, heartbeats, and posts the experiment's {@link Finish}.
 */
public final class AgentProtocol {

    private AgentProtocol() {
    }

    /**
     * What an agent says about itself when it registers.
     *
     * @param name a name for people (the host name by default), 1..200 printable characters
     * @param labels the labels of its host, key → value (see {@link HostLabels})
     * @param environment its host environment: CPU model, cores, kernel, CPU accounting mode, JVM…
     * @param runsCommands whether it runs command experiments (shell commands from the service)
     */
    public record Registration(String name, Map<String, String> labels, Map<String, String> environment,
                               boolean runsCommands) {
    }

    /**
     * The service's answer to a registration.
     *
     * @param agentId the id to use in every later request
     * @param heartbeatSeconds how often to heartbeat
     * @param heartbeatTimeoutSeconds an agent silent for longer is lost and its experiment interrupted
     */
    public record Registered(long agentId, double heartbeatSeconds, double heartbeatTimeoutSeconds) {
    }

    /**
     * A heartbeat, and what the service wants of the agent in return.
     *
     * @param cancel true when a user cancelled the experiment the agent runs: stop it and post its finish
     */
    public record HeartbeatAnswer(boolean cancel) {
    }

    /**
     * One variant of an assigned experiment, as stored.
     *
     * @param options engine experiments: engine option name → value
     * @param jvmArgs engine experiments: the variant's own trial JVM flags
     * @param command command experiments: the shell command
     * @param metricsFormat command experiments: the format its output is read in, or null
     * @param directory command experiments: its working directory, or null
     * @param environment command experiments: its environment variables
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AssignedVariant(Map<String, String> options, List<String> jvmArgs, String command,
                                  String metricsFormat, String directory, Map<String, String> environment) {

        /** The runner's variant; an engine variant runs {@code workload}. */
        Variant toVariant(Workload workload) {
            if (command != null) {
                return new CommandVariant(command, Optional.ofNullable(metricsFormat),
                        Optional.ofNullable(directory).map(Path::of), environment == null ? Map.of() : environment);
            }
            EngineOptions engine = RunnerJson.mapper().readValue(
                    RunnerJson.mapper().writeValueAsString(options == null ? Map.of() : options), EngineOptions.class);
            return new EngineVariant(engine, workload, jvmArgs == null ? List.of() : jvmArgs, Optional.empty());
        }
    }

    /**
     * An experiment claimed by an agent: its plan as stored, and which trials it still misses.
     *
     * @param experimentId the experiment
     * @param name its title
     * @param kind {@code ENGINE} or {@code COMMAND}
     * @param design {@code fresh}, {@code duet} or {@code alternating}
     * @param runsPerVariant trials per variant (pairs in a paired design)
     * @param order {@code interleaved}, {@code randomized} or {@code blocked}
     * @param seed seed of the randomized order
     * @param trialTimeoutSeconds a trial still running after this is killed
     * @param maxFailures failed trials tolerated before the experiment stops
     * @param windowsPerPair windows per variant and pair of a paired design; 1 in the fresh design
     * @param workload engine experiments: rpc-bench's workload settings as stored (a JSON object), else null
     * @param without the baseline
     * @param with the change
     * @param pendingOrdinals the plan positions of the trials not stored yet, in plan order
     */
    public record Assignment(long experimentId, String name, String kind, String design, int runsPerVariant,
                             String order, long seed, int trialTimeoutSeconds, int maxFailures, int windowsPerPair,
                             @Schema(nullable = true) String workload, AssignedVariant without, AssignedVariant with,
                             List<Integer> pendingOrdinals) {

        /** The plan the runner runs: the same for the built-in agent and a remote one. */
        public ExperimentPlan toPlan() {
            Workload settings = workload == null ? Workload.DEFAULTS
                    : RunnerJson.mapper().readValue(workload, WorkloadSettings.class).applyTo(Workload.DEFAULTS);
            ExperimentDesign parsedDesign = ExperimentDesign.parse(design);
            ExperimentPlan plan = ExperimentPlan.of(without.toVariant(settings), with.toVariant(settings),
                            runsPerVariant)
                    .withOrder(TrialOrder.parse(order))
                    .withSeed(seed)
                    .withTrialTimeout(Duration.ofSeconds(trialTimeoutSeconds))
                    .withMaxFailures(maxFailures);
            return parsedDesign.paired() ? plan.withDesign(parsedDesign, windowsPerPair) : plan;
        }
    }

    /**
     * A metric a command trial read from its output.
     *
     * @param unit its unit, may be empty
     * @param higherIsBetter its direction
     * @param values every value the run printed, finite
     */
    public record PostedMetric(String unit, boolean higherIsBetter, List<Double> values) {
    }

    /**
     * One finished trial of the fresh design, posted the moment it ends. Posting the same ordinal again stores
     * nothing more: a retried post never duplicates a trial.
     *
     * @param variant {@code without} or {@code with}: the plan's variant at {@code ordinal}
     * @param ordinal its position in the plan
     * @param status {@code OK}, {@code FAILED}, {@code TIMED_OUT} or {@code CANCELLED}
     * @param start when its process started
     * @param end when it ended
     * @param pid its process id, -1 if it never started
     * @param metrics metric key → value, finite
     * @param environment what it ran on (JVM, host, load…)
     * @param error what went wrong, or null
     * @param parsedMetrics command trials that read their output: each metric's unit, direction and values
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PostedTrial(String variant, int ordinal, String status, Instant start, Instant end, long pid,
                              Map<String, Double> metrics, Map<String, String> environment,
                              @Schema(nullable = true) String error, Map<String, PostedMetric> parsedMetrics) {

        /** The most environment entries a trial posts; the service refuses more. */
        public static final int MAX_ENVIRONMENT_ENTRIES = 100;
        /** The longest environment value a trial posts; the service refuses longer ones. */
        public static final int MAX_ENVIRONMENT_VALUE = 8000;

        /**
         * A runner's result as posted, its environment cut to what the service takes (the first {@value
         * #MAX_ENVIRONMENT_ENTRIES} entries, each value to {@value #MAX_ENVIRONMENT_VALUE} characters), as the
         * service's own store keeps what fits.
         */
        public static PostedTrial of(TrialResult result) {
            Map<String, PostedMetric> parsed = new LinkedHashMap<>();
            result.parsedMetrics().forEach((key, metric) -> parsed.put(key,
                    new PostedMetric(metric.unit(), metric.higherIsBetter(), metric.values())));
            Map<String, String> environment = new LinkedHashMap<>();
            result.environment().entrySet().stream().limit(MAX_ENVIRONMENT_ENTRIES).forEach(e -> environment.put(
                    e.getKey(), e.getValue() == null || e.getValue().length() <= MAX_ENVIRONMENT_VALUE ? e.getValue()
                            : e.getValue().substring(0, MAX_ENVIRONMENT_VALUE - 1) + "…"));
            return new PostedTrial(result.variant(), result.ordinal(), result.status().name(), result.start(),
                    result.end(), result.pid(), result.metrics(), environment, result.error(), parsed);
        }

        /**
         * The runner's result this post carries.
         *
         * @throws IllegalArgumentException when a field is out of its bounds, naming it
         */
        public TrialResult toResult() {
            TrialStatus parsedStatus;
            try {
                parsedStatus = TrialStatus.valueOf(status == null ? "" : status);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("status: '" + status + "' is not one of "
                        + List.of(TrialStatus.values()));
            }
            Map<String, ParsedMetric> parsed = new LinkedHashMap<>();
            if (parsedMetrics != null) {
                parsedMetrics.forEach((key, metric) -> {
                    if (metric == null || metric.values() == null) {
                        throw new IllegalArgumentException("parsedMetrics." + key + ": needs values");
                    }
                    try {
                        parsed.put(key, new ParsedMetric(metric.unit(), metric.higherIsBetter(), metric.values()));
                    } catch (IllegalArgumentException | NullPointerException e) {
                        throw new IllegalArgumentException("parsedMetrics." + key + ": " + e.getMessage());
                    }
                });
            }
            return new TrialResult(variant, ordinal, parsedStatus, start, end, pid, metrics, environment, error,
                    null, parsed);
        }
    }

    /**
     * What the service did with a posted trial.
     *
     * @param stored true when it was stored now, false when that ordinal was stored before (a retried post)
     * @param cancel true when a user cancelled the experiment: stop it and post its finish
     */
    public record TrialAnswer(boolean stored, boolean cancel) {
    }

    /**
     * How an agent's run of an experiment ended.
     *
     * @param outcome {@code COMPLETED} (every pending trial ran), {@code FAILED} (too many trials failed, or the
     *     agent could not run it), {@code CANCELLED} (a user cancelled it) or {@code INTERRUPTED} (the agent stopped;
     *     the next agent of the same labels resumes it)
     * @param message why it failed or stopped, or null
     */
    public record Finish(String outcome, @Schema(nullable = true) String message) {
    }
}
