package io.perflab.runner.experiment;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.rpcbench.Stack;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.TrialSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An engine configuration run by rpc-bench in a fresh JVM per trial.
 *
 * @param engineOptions the engine's options (they apply to the {@code perflab} stack only)
 * @param workload rpc-bench's parameters
 * @param jvmArgs JVM flags of this variant only, after the plan's common flags (a later flag wins)
 * @param javaHome another JDK to run this variant with; empty for the runner's own
 */
public record EngineVariant(EngineOptions engineOptions, Workload workload, List<String> jvmArgs,
                            Optional<Path> javaHome) implements Variant {

    public EngineVariant {
        Objects.requireNonNull(engineOptions, "engineOptions");
        Objects.requireNonNull(workload, "workload");
        jvmArgs = List.copyOf(jvmArgs);
        Objects.requireNonNull(javaHome, "javaHome");
    }

    /**
     * {@code jvmArgs}, then the flags that the engine options of any of {@code variants} need from the JVM
     * ({@link EngineOptions#jvmFlags()}, e.g. for {@code completion=futex}): every trial of an experiment gets them,
     * whichever side it runs, so that the two sides' JVMs differ only by the change.
     */
    static List<String> trialJvmArgs(List<String> jvmArgs, Collection<? extends Variant> variants) {
        List<String> flags = new ArrayList<>(jvmArgs);
        variants.stream().filter(EngineVariant.class::isInstance)
                .flatMap(v -> ((EngineVariant) v).engineOptions().jvmFlags().stream())
                .distinct().filter(flag -> !flags.contains(flag)).forEach(flags::add);
        return List.copyOf(flags);
    }

    public static EngineVariant of(EngineOptions engineOptions, Workload workload) {
        return new EngineVariant(engineOptions, workload, List.of(), Optional.empty());
    }

    /** A variant with the engine's defaults but for {@code options} (name → value). */
    public static EngineVariant of(Map<String, String> options, Workload workload) {
        return of(EngineOptions.fromMap(options), workload);
    }

    public EngineVariant withJvmArgs(List<String> args) {
        return new EngineVariant(engineOptions, workload, args, javaHome);
    }

    public TrialSpec trialSpec() {
        return new TrialSpec(engineOptions, workload);
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("kind", "engine");
        if (workload.stack() == Stack.PERFLAB) {
            d.put("engineOptions", engineOptions.describe());
        }
        d.put("workload", workload.describe());
        d.put("jvmArgs", jvmArgs);
        d.put("javaHome", javaHome.map(Path::toString).orElse(null));
        return d;
    }
}
