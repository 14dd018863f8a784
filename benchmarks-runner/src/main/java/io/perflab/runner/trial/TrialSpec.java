package io.perflab.runner.trial;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.json.RunnerJson;
import io.perflab.runner.rpcbench.Workload;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

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
     * @throws IllegalArgumentException saying which field is wrong and what it must be, e.g.
     *     {@code workload.clientThreads: must be a whole number}
     */
    public static TrialSpec fromJson(String json) {
        JsonNode tree;
        try {
            tree = RunnerJson.mapper().readTree(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(SpecErrors.describe(e), e);
        }
        if (tree == null || !tree.isObject() || !tree.has("engineOptions") || !tree.has("workload")) {
            throw new IllegalArgumentException("spec: must be a JSON object with engineOptions and workload");
        }
        for (String field : new String[] {"engineOptions", "workload"}) {
            if (!tree.get(field).isObject()) {
                throw new IllegalArgumentException(field + ": must be an object");
            }
        }
        try {
            return RunnerJson.mapper().treeToValue(tree, TrialSpec.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(SpecErrors.describe(e), e);
        }
    }
}
