package io.perflab.experiment;

import java.util.List;
import java.util.Map;

/**
 * The body of {@code POST /api/v1/experiments}. Every field but {@code name} is optional: omitted fields take the
 * preset's values or rpc-bench's defaults.
 *
 * @param name title of the experiment
 * @param description free text
 * @param kind {@code engine} (default) or {@code command}
 * @param preset one of {@link ExperimentPreset}'s ids; fills {@code without}/{@code with}
 * @param without engine options of the baseline, option name → value
 * @param with engine options of the change
 * @param workload rpc-bench parameters: mode, clientThreads, asyncConcurrency, workerThreads, serverReactors,
 *     requestBytes, responseBytes, warmupSeconds (a number, {@code auto} or {@code auto:MAX}), runSeconds, encryption
 * @param withoutJvmArgs JVM flags of the baseline's trial JVMs only
 * @param withJvmArgs JVM flags of the change's trial JVMs only
 * @param withoutCommand command experiments: the baseline's shell command
 * @param withCommand command experiments: the change's shell command
 * @param runsPerVariant trials per variant, 2..1000 (default 40)
 * @param order {@code interleaved} (default), {@code randomized} or {@code blocked}
 * @param seed seed of the randomized order (default 1)
 * @param trialTimeoutSeconds a trial still running after this is killed (default: warmup cap + run + 60 s)
 * @param maxFailures failed trials tolerated before the experiment stops (default 3)
 */
public record ExperimentRequest(String name, String description, String kind, String preset,
                                Map<String, String> without, Map<String, String> with, Map<String, Object> workload,
                                List<String> withoutJvmArgs, List<String> withJvmArgs,
                                String withoutCommand, String withCommand,
                                Integer runsPerVariant, String order, Long seed, Integer trialTimeoutSeconds,
                                Integer maxFailures) {
}
