package io.perflab.agent;

import static io.perflab.system.PrintableText.Validator.quoted;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.PairPlacement;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.runner.experiment.Variant;
import io.perflab.runner.json.RunnerJson;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.rpcbench.WorkloadSettings;
import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.ParsedMetric;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.system.ApiValues;
import io.perflab.system.JsonErrors;
import io.perflab.system.PrintableText;
import io.perflab.system.Texts;
import io.swagger.v3.oas.annotations.media.Schema;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;

/**
 * The messages between an agent and the service ({@code /api/v1/agents}), shared by both sides so that they cannot
 * drift apart. An agent registers, polls for an {@link Assignment}, posts each finished trial as a {@link
 * PostedTrial} (a paired design: each {@link PostedPair}), heartbeats, and posts the experiment's {@link Finish}.
 * Over 300 lines: every message with its fields documented, and the conversions to and from the runner's types.
 */
public final class AgentProtocol {

    private AgentProtocol() {
    }

    /**
     * What an agent says about itself when it registers.
     *
     * @param name a name for people (the host name by default), 1..200 printable characters
     * @param labels the labels of its host, key → value (see {@link HostLabels})
     * @param environment its host environment: CPU model, cores, kernel, platform ({@code os_name} and
     *     {@code os_arch}, the JVM's {@code os.name} and {@code os.arch}: {@link HostPlatform}), CPU accounting mode,
     *     JVM…
     * @param runsCommands whether it runs command experiments (shell commands from the service)
     * @param hardwareCounters whether its trials count instructions and cycles per request, the kernel granting the
     *     CPU's hardware counters; null (left out, as agents of earlier releases do) when it does not say. Only an
     *     agent that says true is given an experiment whose stopping target names {@code instructions_per_req} or
     *     {@code cycles_per_req}.
     * @param systemCalls whether its trials count system calls per request, the kernel letting them read the
     *     system-call tracepoint; null (left out, as agents of earlier releases do) when it does not say. Only an
     *     agent that says true is given an experiment whose stopping target names {@code syscalls_per_req}. What
     *     {@code perflab agent} says of both: {@link AgentHost#counts(List)}.
     */
    public record Registration(@Schema(requiredMode = Schema.RequiredMode.REQUIRED) String name,
                               Map<String, String> labels, Map<String, String> environment, boolean runsCommands,
                               @Schema(nullable = true) Boolean hardwareCounters,
                               @Schema(nullable = true) Boolean systemCalls) {

        /** A registration that says {@code counts} of its trials' counts. */
        public static Registration of(String name, Map<String, String> labels, Map<String, String> environment,
                                      boolean runsCommands, HostCounts counts) {
            return new Registration(name, labels, environment, runsCommands, counts.hardwareCounters(),
                    counts.systemCalls());
        }

        /** What it says of its trials' counts. */
        public HostCounts counts() {
            return new HostCounts(systemCalls, hardwareCounters);
        }
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
     * @param pendingOrdinals the fresh design: the plan positions of the trials not stored yet, in plan order
     * @param pendingPairs a paired design: the pairs not stored yet, in order (each runs, and is posted, whole);
     *     none once its stopping rule stopped it, so that an agent resuming it only posts its finish
     */
    public record Assignment(long experimentId, String name,
                             @Schema(allowableValues = {"ENGINE", "COMMAND"}) String kind,
                             @ApiValues(value = ExperimentDesign.class, written = "label") String design,
                             int runsPerVariant, @ApiValues(value = TrialOrder.class, written = "label") String order,
                             long seed, int trialTimeoutSeconds, int maxFailures, int windowsPerPair,
                             @Schema(nullable = true) String workload, AssignedVariant without, AssignedVariant with,
                             List<Integer> pendingOrdinals, List<Integer> pendingPairs) {

        /** Whether running it runs shell commands: a command experiment, or any variant with a command. */
        public boolean runsCommands() {
            return "COMMAND".equalsIgnoreCase(kind) || without != null && without.command() != null
                    || with != null && with.command() != null;
        }

        /**
         * The plan the runner runs: the same for the built-in agent and a remote one.
         *
         * @throws IllegalArgumentException when the assignment misses a variant or the pending trials, or holds a
         *     workload or engine options that cannot be read, saying which
         */
        public ExperimentPlan toPlan() {
            if (without == null || with == null) {
                throw new IllegalArgumentException("the assignment has no '" + (without == null ? "without" : "with")
                        + "' variant");
            }
            if (pendingOrdinals == null || pendingPairs == null) {
                throw new IllegalArgumentException("the assignment does not list the trials and pairs to run");
            }
            Workload settings;
            try {
                settings = workload == null ? Workload.DEFAULTS
                        : RunnerJson.mapper().readValue(workload, WorkloadSettings.class).applyTo(Workload.DEFAULTS);
            } catch (JacksonException e) {
                throw new IllegalArgumentException("the assignment's workload cannot be read: "
                        + JsonErrors.describe(e));
            }
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
     * @param window in a posted pair, where the window lies in it; absent in the fresh design
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PostedTrial(@Schema(requiredMode = Schema.RequiredMode.REQUIRED) String variant, int ordinal,
                              @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String status, Instant start,
                              Instant end, long pid, Map<String, Double> metrics, Map<String, String> environment,
                              @Schema(nullable = true) String error, Map<String, PostedMetric> parsedMetrics,
                              @Schema(nullable = true) PostedWindow window) {

        /** The most environment entries a trial posts; the service refuses more. */
        public static final int MAX_ENVIRONMENT_ENTRIES = 100;
        /** The longest environment value a trial posts; the service refuses longer ones. */
        public static final int MAX_ENVIRONMENT_VALUE = 8000;
        /**
         * The longest environment key a trial posts; the service refuses longer ones. A command's output may name
         * longer ones (its {@code machine} keys come as {@code output.<key>}).
         */
        public static final int MAX_ENVIRONMENT_KEY = 100;

        /**
         * A runner's result as posted, its environment cut to what the service takes (the first {@value
         * #MAX_ENVIRONMENT_ENTRIES} entries, each key to {@value #MAX_ENVIRONMENT_KEY} and each value to {@value
         * #MAX_ENVIRONMENT_VALUE} characters, the characters it refuses shown as {@code ?}: see {@link #printable}),
         * as the service's own store keeps what fits. Two keys that are one once cut keep the first one's value.
         */
        public static PostedTrial of(TrialResult result) {
            Map<String, PostedMetric> parsed = new LinkedHashMap<>();
            result.parsedMetrics().forEach((key, metric) -> parsed.put(key,
                    new PostedMetric(metric.unit(), metric.higherIsBetter(), metric.values())));
            Map<String, String> environment = new LinkedHashMap<>();
            result.environment().entrySet().stream().filter(e -> !e.getKey().isEmpty())
                    .limit(MAX_ENVIRONMENT_ENTRIES).forEach(e -> environment.putIfAbsent(
                            printable(Texts.cut(e.getKey(), MAX_ENVIRONMENT_KEY), false), e.getValue() == null ? null
                                    : printable(Texts.cut(e.getValue(), MAX_ENVIRONMENT_VALUE), true)));
            PairPosition pair = result.pair();
            return new PostedTrial(result.variant(), result.ordinal(), result.status().name(), result.start(),
                    result.end(), result.pid(), result.metrics(), environment, Texts.withoutNul(result.error()), parsed,
                    pair == null ? null : new PostedWindow(pair.index(), pair.window(), pair.cpus(), pair.startNanos(),
                            pair.skewNanos(), pair.startedFirst()));
        }

        /**
         * {@code text} as an environment key or value the service takes (pages and reports show them): each control
         * character — in a value, other than a line break or a tab, as a command holds — and each character that
         * hides or reorders text (a right-to-left override, an unpaired surrogate) made {@code ?}.
         */
        public static String printable(String text, boolean value) {
            return PrintableText.Validator.replaced(text, '?', value ? "\n\r\t" : "");
        }

        /**
         * The runner's result this post carries.
         *
         * @throws IllegalArgumentException when a field is out of its bounds, naming it
         */
        public TrialResult toResult() {
            if (variant == null) {
                throw new IllegalArgumentException("variant: required, 'without' or 'with'");
            }
            TrialStatus parsedStatus = trialStatus(status);
            Map<String, ParsedMetric> parsed = new LinkedHashMap<>();
            if (parsedMetrics != null) {
                parsedMetrics.forEach((key, metric) -> {
                    if (metric == null || metric.values() == null) {
                        throw new IllegalArgumentException("parsedMetrics." + key + ": needs values");
                    }
                    if (metric.values().contains(null)) {
                        throw new IllegalArgumentException("parsedMetrics." + key + ".values: must be numbers, "
                                + "got null");
                    }
                    try {
                        parsed.put(key, new ParsedMetric(metric.unit(), metric.higherIsBetter(), metric.values()));
                    } catch (IllegalArgumentException | NullPointerException e) {
                        throw new IllegalArgumentException("parsedMetrics." + key + ": " + e.getMessage());
                    }
                });
            }
            PairPosition pair;
            try {
                pair = window == null ? null : new PairPosition(window.pair(), window.window(), window.cpus(),
                        window.startNanos(), window.skewNanos(), window.startedFirst());
            } catch (IllegalArgumentException e) {
                // the field refused: the pair's index, or its window's number
                throw new IllegalArgumentException((window.pair() < 0 ? "window.pair: " : "window.window: ")
                        + e.getMessage());
            }
            return new TrialResult(variant, ordinal, parsedStatus, start, end, pid, metrics, environment, error,
                    pair, parsed);
        }
    }

    /**
     * Where a posted window lies in its pair.
     *
     * @param pair the pair, from 0
     * @param window the window of its variant in the pair, from 0; null for the record of a pair that failed whole
     * @param cpus the CPUs its JVM was pinned to, or null
     * @param startNanos its start on the host's monotonic clock, or null
     * @param skewNanos in a duet, its start minus its partner's, else null
     * @param startedFirst whether its variant's process of the pair started first
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PostedWindow(int pair, @Schema(nullable = true) Integer window, @Schema(nullable = true) String cpus,
                               @Schema(nullable = true) Long startNanos, @Schema(nullable = true) Long skewNanos,
                               boolean startedFirst) {
    }

    /**
     * One finished pair of a paired design, posted whole the moment it ends; posting the same pair again stores
     * nothing more. A pair cut short (cancelled) is not posted: it runs again whole.
     *
     * @param index the pair, from 0
     * @param status {@code OK} when every window of both variants was measured, {@code FAILED} or {@code TIMED_OUT}
     * @param withoutCpus the baseline's CPUs, or null
     * @param withCpus the change's CPUs, or null
     * @param first {@code without} or {@code with}: the variant started first
     * @param start when the pair's first process started
     * @param end when its processes were gone
     * @param setupSeconds from its start to both sides ready
     * @param measuringSeconds from its first window to its last
     * @param error what went wrong, or null
     * @param results every window of both variants (OK), or one record per variant (failed)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PostedPair(int index, @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String status,
                             @Schema(nullable = true) String withoutCpus, @Schema(nullable = true) String withCpus,
                             @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String first, Instant start,
                             Instant end, double setupSeconds, double measuringSeconds,
                             @Schema(nullable = true) String error,
                             @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<PostedTrial> results) {

        /** A runner's pair as posted. */
        public static PostedPair of(PairResult pair) {
            return new PostedPair(pair.index(), pair.status().name(), pair.placement().withoutCpus(),
                    pair.placement().withCpus(), pair.placement().first().label(), pair.start(), pair.end(),
                    pair.setup().toNanos() / 1e9, pair.measuring().toNanos() / 1e9, Texts.withoutNul(pair.error()),
                    pair.results().stream().map(PostedTrial::of).toList());
        }

        /**
         * The runner's pair this post carries.
         *
         * @throws IllegalArgumentException naming the field that is out of its bounds
         */
        public PairResult toResult() {
            TrialStatus parsedStatus = trialStatus(status);
            io.perflab.runner.experiment.VariantName firstVariant;
            try {
                firstVariant = io.perflab.runner.experiment.VariantName.parse(first == null ? "" : first);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("first: '" + quoted(first) + "' is not 'without' or 'with'");
            }
            if (!Double.isFinite(setupSeconds) || setupSeconds < 0 || setupSeconds > 1e7) {
                throw new IllegalArgumentException("setupSeconds: must be a duration in seconds, got " + setupSeconds);
            }
            if (!Double.isFinite(measuringSeconds) || measuringSeconds < 0 || measuringSeconds > 1e7) {
                throw new IllegalArgumentException("measuringSeconds: must be a duration in seconds, got "
                        + measuringSeconds);
            }
            if (results == null) {
                throw new IllegalArgumentException("results: required, the pair's windows");
            }
            List<TrialResult> windows = new java.util.ArrayList<>();
            for (int i = 0; i < results.size(); i++) {
                if (results.get(i) == null) {
                    throw new IllegalArgumentException("results[" + i + "]: must be a window");
                }
                try {
                    windows.add(results.get(i).toResult());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("results[" + i + "]." + e.getMessage());
                }
            }
            return new PairResult(index, parsedStatus, new PairPlacement(withoutCpus, withCpus, firstVariant),
                    windows, start, end, Duration.ofNanos(Math.round(setupSeconds * 1e9)),
                    Duration.ofNanos(Math.round(measuringSeconds * 1e9)), error);
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
     * What the service did with a posted pair, and what the experiment's sequential stopping rule (its targets, its
     * budget) decided after it. The service takes the rule's looks as each pair is stored, as the built-in agent
     * does, so the agent only heeds {@code stop}.
     *
     * @param stored true when it was stored now; false when that pair was stored before (a retried post, answered
     *     as the first was) or when the rule had stopped the experiment before it (not stored)
     * @param cancel true when a user cancelled the experiment: stop it and post its finish
     * @param stop true when the rule says the experiment has its answer (every target settled) or its budget would
     *     be overrun by another pair: start no further pair and post the finish as {@code COMPLETED}
     * @param stopReason why it stops, as the experiment shows it; null while it goes on
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PairAnswer(boolean stored, boolean cancel, boolean stop, @Schema(nullable = true) String stopReason) {
    }

    /**
     * How an agent's run of an experiment ended.
     *
     * @param outcome {@code COMPLETED} (every pending trial ran), {@code FAILED} (too many trials failed, or the
     *     agent could not run it), {@code CANCELLED} (a user cancelled it) or {@code INTERRUPTED} (the agent stopped;
     *     the next agent of the same labels resumes it)
     * @param message why it failed or stopped, or null
     */
    public record Finish(@Schema(requiredMode = Schema.RequiredMode.REQUIRED) String outcome,
                         @Schema(nullable = true) String message) {

        /** The longest message the service takes. */
        public static final int MAX_MESSAGE = 4000;

        /**
         * A finish whose message the service takes whatever the run printed: line breaks kept, every other control
         * character (a tab, a CR, an ESC of colored output) and every hidden format character made a space, cut to
         * {@value #MAX_MESSAGE} characters. A finish the service refused would leave the experiment running on an
         * agent that has moved on, to be interrupted and run again when its heartbeat stops.
         */
        public static Finish of(String outcome, String message) {
            if (message == null) {
                return new Finish(outcome, null);
            }
            return new Finish(outcome, Texts.cut(PrintableText.Validator.replaced(message, ' ', "\n"), MAX_MESSAGE));
        }
    }

    /** A posted status as the runner's, or an error naming the field and the statuses there are. */
    private static TrialStatus trialStatus(String status) {
        try {
            return TrialStatus.valueOf(status == null ? "" : status);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("status: '" + quoted(status) + "' is not one of "
                    + List.of(TrialStatus.values()));
        }
    }

}
