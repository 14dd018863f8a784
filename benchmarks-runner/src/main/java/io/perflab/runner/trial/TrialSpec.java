package io.perflab.runner.trial;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.json.RunnerJson;
import io.perflab.runner.rpcbench.Workload;
import java.util.Objects;
import tools.jackson.core.JacksonException;

/**
 * What one engine trial runs: engine options and the rpc-bench workload. A trial JVM gets it as one argument,
 * its {@linkplain #toJson() JSON}: {@code {"engineOptions":{"completion":"monitor",…},"workload":{…}}}.
 *
 * @param engineOptions the engine's options (ignored by the other stacks)
 * @param workload the workload
 */
public record TrialSpec(EngineOptions engineOptions, Workload workload) {

    public TrialSpec {
        Objects.requireNonNull(engineOptions, "engineOptions");
        Objects.requireNonNull(workload, "workload");
    }

    public String toJson() {
        return RunnerJson.mapper().writeValueAsString(this);
    }

    /**
     * Reads {@link #toJson()}.
     *
     * @throws IllegalArgumentException saying what is wrong with the text
     */
    public static TrialSpec fromJson(String json) {
        try {
            return RunnerJson.mapper().readValue(json, TrialSpec.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not a trial spec: " + e.getOriginalMessage(), e);
        }
    }
}
