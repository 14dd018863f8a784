package io.perflab.experiment;

import com.fasterxml.jackson.annotation.JsonFormat;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.rpcbench.WorkloadSettings;
import io.perflab.system.PrintableText;
import io.perflab.system.ScalarText;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * The body of {@code POST /api/v1/experiments}, and what the new-experiment form binds. Every field but
 * {@code name} is optional: omitted fields take the preset's values or rpc-bench's defaults. The constraints
 * here are the bounds of each field; {@link ExperimentValidator} checks how the fields fit together.
 *
 * @param name title of the experiment
 * @param description free text
 * @param kind {@code engine} (default) or {@code command}
 * @param preset one of {@link ExperimentPreset}'s ids; fills {@code without}/{@code with}
 * @param without engine options of the baseline, option name → value
 * @param with engine options of the change
 * @param workload rpc-bench's parameters; those left out keep the preset's or rpc-bench's values
 * @param withoutJvmArgs JVM flags of the baseline's trial JVMs only (see {@link JvmFlagPolicy})
 * @param withJvmArgs JVM flags of the change's trial JVMs only
 * @param withoutCommand command experiments: the baseline's shell command
 * @param withCommand command experiments: the change's shell command
 * @param runsPerVariant trials per variant of the fresh design, 2..1000 (default 40); giving it without a
 *     {@code design} chooses the fresh design
 * @param order {@code interleaved} (default), {@code randomized} or {@code blocked}
 * @param seed seed of the randomized order (default 1)
 * @param trialTimeoutSeconds a trial still running after this is killed (default: warmup cap + run + 60 s)
 * @param maxFailures failed trials (in a paired design, failed pairs) tolerated before the experiment stops (default 3)
 * @param metricsFormat command experiments: the format both commands print their own metrics in ({@code rpcbench},
 *     {@code jmh}, {@code gobench}, {@code googlebenchmark}, {@code hyperfine}, {@code csv}, {@code json}: those of
 *     {@code POST /api/v1/uploads}); each metric's mean per run becomes that trial's sample. A command that writes
 *     its results to a file names it {@code {output}}, a fresh file per trial read instead of standard output.
 * @param withoutDirectory command experiments: the baseline's working directory, an absolute path on the server
 * @param withDirectory command experiments: the change's working directory
 * @param withoutEnvironment command experiments: environment variables of the baseline's runs, name → value
 * @param withEnvironment command experiments: environment variables of the change's runs
 * @param design {@code alternating} (pairs of JVMs loaded in turn; the default unless {@code runsPerVariant} is
 *     given, with 3 s windows after an {@code auto:15} warmup unless the workload says otherwise), {@code fresh} (a
 *     fresh JVM per trial) or {@code duet} (pairs of JVMs at once, each on its half of the CPUs); command
 *     experiments take fresh or alternating
 * @param pairs a paired design's pairs, 2..1000: the most it runs (default 20 for an engine experiment, with the
 *     target {@code cpu_us_per_req:settled} unless one is given; 8 for a command experiment); given without a target,
 *     all of them run
 * @param windowsPerPair windows of each variant per pair of a paired design, 1..1000 (default 3)
 * @param target paired designs: stop once every target is met, each {@code METRIC:PERCENT%} (its change known to
 *     ± that), {@code METRIC:settled} (significant at α despite the repeated looks) or {@code METRIC:mde=PERCENT%}
 *     (settled, or futile: a change of ± that unlikely to be found by the last pair); one string or a list; an engine
 *     experiment that gives neither {@code pairs} nor a target has {@code cpu_us_per_req:settled}
 * @param budget paired designs: start no pair that would end after this long, e.g. {@code 10m}, {@code 90s},
 *     {@code 1h30m}
 * @param hostLabels the labels the host of an agent must carry to run it, e.g. {@code {"arch": "x86_64"}}: keys of 1
 *     to 40 letters, digits, {@code . _ -}, values of 1 to 100 letters, digits, {@code . _ - + : /}, at most 16;
 *     none: any agent whose host carries no label the experiment lacks (the built-in agent, by default)
 */
public record ExperimentRequest(
        @NotBlank @Size(min = 1, max = 200) @PrintableText String name,
        @Size(max = 4000) @PrintableText(multiline = true) String description,
        String kind,
        String preset,
        @JsonDeserialize(contentUsing = ScalarText.class)
        @Size(max = 20) Map<@NotBlank @Size(min = 1, max = 40) String, @NotNull @Size(max = 40) String> without,
        @JsonDeserialize(contentUsing = ScalarText.class)
        @Size(max = 20) Map<@NotBlank @Size(min = 1, max = 40) String, @NotNull @Size(max = 40) String> with,
        @Valid WorkloadSettings workload,
        @Size(max = 32) List<@NotNull @Size(max = 200) String> withoutJvmArgs,
        @Size(max = 32) List<@NotNull @Size(max = 200) String> withJvmArgs,
        @Size(max = 4000) String withoutCommand,
        @Size(max = 4000) String withCommand,
        @Min(ExperimentValidator.MIN_RUNS) @Max(ExperimentValidator.MAX_RUNS) Integer runsPerVariant,
        String order,
        Long seed,
        @Min(1) @Max(ExperimentValidator.MAX_TRIAL_TIMEOUT_SECONDS) Integer trialTimeoutSeconds,
        @Min(0) @Max(2 * ExperimentValidator.MAX_RUNS) Integer maxFailures,
        @Size(max = 40) String metricsFormat,
        @Size(max = 1000) @PrintableText String withoutDirectory,
        @Size(max = 1000) @PrintableText String withDirectory,
        @Size(max = 50)
        Map<@NotBlank @Size(min = 1, max = 100) String, @NotNull @Size(max = 4000) String> withoutEnvironment,
        @Size(max = 50)
        Map<@NotBlank @Size(min = 1, max = 100) String, @NotNull @Size(max = 4000) String> withEnvironment,
        @Size(max = 12) String design,
        @Min(ExperimentValidator.MIN_RUNS) @Max(ExperimentValidator.MAX_RUNS) Integer pairs,
        @Min(1) @Max(ExperimentPlan.MAX_WINDOWS_PER_PAIR) Integer windowsPerPair,
        @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
        @Size(max = 20) List<@NotBlank @Size(min = 1, max = 140) @PrintableText String> target,
        @Size(max = 40) String budget,
        @Size(max = io.perflab.agent.HostLabels.MAX_LABELS) Map<String, String> hostLabels) {

    /** A request that asks for no host labels. */
    public ExperimentRequest(String name, String description, String kind, String preset, Map<String, String> without,
                             Map<String, String> with, WorkloadSettings workload, List<String> withoutJvmArgs,
                             List<String> withJvmArgs, String withoutCommand, String withCommand,
                             Integer runsPerVariant, String order, Long seed, Integer trialTimeoutSeconds,
                             Integer maxFailures, String metricsFormat, String withoutDirectory, String withDirectory,
                             Map<String, String> withoutEnvironment, Map<String, String> withEnvironment,
                             String design, Integer pairs, Integer windowsPerPair, List<String> target,
                             String budget) {
        this(name, description, kind, preset, without, with, workload, withoutJvmArgs, withJvmArgs, withoutCommand,
                withCommand, runsPerVariant, order, seed, trialTimeoutSeconds, maxFailures, metricsFormat,
                withoutDirectory, withDirectory, withoutEnvironment, withEnvironment, design, pairs, windowsPerPair,
                target, budget, null);
    }

    /** A request of the fresh design. */
    public ExperimentRequest(String name, String description, String kind, String preset, Map<String, String> without,
                             Map<String, String> with, WorkloadSettings workload, List<String> withoutJvmArgs,
                             List<String> withJvmArgs, String withoutCommand, String withCommand,
                             Integer runsPerVariant, String order, Long seed, Integer trialTimeoutSeconds,
                             Integer maxFailures, String metricsFormat, String withoutDirectory, String withDirectory,
                             Map<String, String> withoutEnvironment, Map<String, String> withEnvironment) {
        this(name, description, kind, preset, without, with, workload, withoutJvmArgs, withJvmArgs, withoutCommand,
                withCommand, runsPerVariant, order, seed, trialTimeoutSeconds, maxFailures, metricsFormat,
                withoutDirectory, withDirectory, withoutEnvironment, withEnvironment, null, null, null, null, null);
    }

    /** A request of the fresh design that sets no command experiment's output format, directories or environments. */
    public ExperimentRequest(String name, String description, String kind, String preset, Map<String, String> without,
                             Map<String, String> with, WorkloadSettings workload, List<String> withoutJvmArgs,
                             List<String> withJvmArgs, String withoutCommand, String withCommand,
                             Integer runsPerVariant, String order, Long seed, Integer trialTimeoutSeconds,
                             Integer maxFailures) {
        this(name, description, kind, preset, without, with, workload, withoutJvmArgs, withJvmArgs, withoutCommand,
                withCommand, runsPerVariant, order, seed, trialTimeoutSeconds, maxFailures, null, null, null, null,
                null, null, null, null, null, null);
    }

    /** Just a name and the rest left out. */
    public static ExperimentRequest named(String name) {
        return new ExperimentRequest(name, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null);
    }
}
