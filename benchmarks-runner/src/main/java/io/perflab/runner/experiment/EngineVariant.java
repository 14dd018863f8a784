package io.perflab.runner.experiment;

import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.TrialSpec;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An engine configuration run by rpc-bench in a fresh JVM per trial.
 *
 * @param engineOptions engine option name → value (unnamed options keep the engine's defaults)
 * @param workload rpc-bench's parameters
 * @param jvmArgs JVM flags of this variant only, after the plan's common flags (a later flag wins)
 * @param javaHome another JDK to run this variant with; empty for the runner's own
 */
public record EngineVariant(Map<String, String> engineOptions, Workload workload, List<String> jvmArgs,
                            Optional<Path> javaHome) implements Variant {

    public EngineVariant {
        engineOptions = Map.copyOf(new LinkedHashMap<>(engineOptions));
        jvmArgs = List.copyOf(jvmArgs);
    }

    public static EngineVariant of(Map<String, String> engineOptions, Workload workload) {
        return new EngineVariant(engineOptions, workload, List.of(), Optional.empty());
    }

    public EngineVariant withJvmArgs(List<String> args) {
        return new EngineVariant(engineOptions, workload, args, javaHome);
    }

    public TrialSpec trialSpec() {
        return new TrialSpec(new java.util.TreeMap<>(engineOptions), workload);
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("kind", "engine");
        d.put("engineOptions", new java.util.TreeMap<>(engineOptions));
        d.put("workload", workload.describe());
        d.put("jvmArgs", jvmArgs);
        d.put("javaHome", javaHome.map(Path::toString).orElse(null));
        return d;
    }
}
