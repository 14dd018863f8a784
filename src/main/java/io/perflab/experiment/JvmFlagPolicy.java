package io.perflab.experiment;

import io.perflab.agent.AgentHost;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.JvmFlagAllowList;
import io.perflab.runner.experiment.JvmFlagAllowList.Bounds;
import io.perflab.runner.trial.HostEnvironment;
import io.perflab.system.InvalidInputException;
import io.perflab.system.PerfLabProperties;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Which JVM flags a request may put on a trial JVM's command line. Flags that could run or load code would let
 * anyone who may queue an experiment run programs on the benchmark host, which command experiments reserve for
 * administrators. So every caller gets {@link JvmFlagAllowList}'s flags only, unless the operator has set
 * {@code perflab.trials.raw-jvm-flags=true}, and then administrators may give any flag.
 *
 * <p>Flags on the list may still ask more of the host than it can give ({@code -Xms100g -XX:+AlwaysPreTouch}); they
 * are held to {@link Bounds}: by default a quarter of the host's memory per trial JVM, or the operator's
 * {@code perflab.trials.max-jvm-memory}, and {@value JvmFlagAllowList#MAX_THREADS} threads a flag.
 */
@Component
public class JvmFlagPolicy {

    private final boolean rawFlagsForAdmins;
    private final List<String> fixedFlags;
    private final Bounds bounds;
    private final boolean operatorsBound;

    @Autowired
    public JvmFlagPolicy(PerfLabProperties properties) {
        this(properties.trials().rawJvmFlags(), properties.trials().jvmArgs(),
                bounds(hostMemoryBytes(), properties.trials().maxJvmMemoryBytes()),
                properties.trials().maxJvmMemoryBytes() != null);
    }

    /**
     * @param fixedFlags the operator's fixed flags for every trial JVM ({@code perflab.trials.jvm-args}), or none
     * @param bounds what a request's flags may ask of the host
     * @param operatorsBound whether {@code bounds} is the operator's {@code perflab.trials.max-jvm-memory}, which
     *     holds on every agent's host too; else each agent's host is held to a quarter of its own memory as well
     */
    JvmFlagPolicy(boolean rawFlagsForAdmins, List<String> fixedFlags, Bounds bounds, boolean operatorsBound) {
        this.rawFlagsForAdmins = rawFlagsForAdmins;
        this.fixedFlags = List.copyOf(fixedFlags);
        this.bounds = bounds;
        this.operatorsBound = operatorsBound;
    }

    /** The operator's bound on a trial JVM's memory if set (a positive number of bytes), else a quarter of the host. */
    static Bounds bounds(long hostMemoryBytes, Long maxJvmMemoryBytes) {
        return maxJvmMemoryBytes == null ? Bounds.quarterOf(hostMemoryBytes)
                : new Bounds(hostMemoryBytes, maxJvmMemoryBytes, JvmFlagAllowList.MAX_THREADS);
    }

    /** The physical memory of this host (a container's limit inside one). */
    static long hostMemoryBytes() {
        return HostEnvironment.memoryBytes();
    }

    /** What a request's flags may ask of the host. */
    Bounds bounds() {
        return bounds;
    }

    /**
     * {@code plan} with the operator's fixed flags, if any were set, in place of the default ones. The operator's
     * flags are the operator's choice; the allow-list is for what requests send ({@link #refusal}).
     */
    ExperimentPlan withFixedFlags(ExperimentPlan plan) {
        return fixedFlags.isEmpty() ? plan : plan.withJvmArgs(fixedFlags);
    }

    /** The fixed flags trial JVMs start with on this server: the operator's, or the measuring defaults. */
    List<String> fixedFlags() {
        return fixedFlags.isEmpty() ? ExperimentPlan.DEFAULT_JVM_ARGS : fixedFlags;
    }

    /**
     * {@code flags} if this caller may give them, else a 400 naming {@code field} and the first refused flag, or
     * what they ask beyond the bounds.
     */
    List<String> check(String field, List<String> flags, boolean admin) {
        if (admin && rawFlagsForAdmins) {
            return flags;
        }
        Optional<String> refused = JvmFlagAllowList.firstRefused(flags);
        if (refused.isPresent()) {
            throw InvalidInputException.of(field, JvmFlagAllowList.refusal(refused.get()) + (admin
                    ? "; an operator can let administrators give any flag with perflab.trials.raw-jvm-flags=true"
                    : ""));
        }
        JvmFlagAllowList.excess(flags, bounds).ifPresent(excess -> {
            throw InvalidInputException.of(field, excess);
        });
        return flags;
    }

    /**
     * Why a stored plan may not run on this server, if it may not: a plan queued before the allow-list existed,
     * or while raw flags were allowed, runs only while they still are.
     */
    Optional<String> refusal(ExperimentPlan plan) {
        if (rawFlagsForAdmins) {
            return Optional.empty();
        }
        List<List<String>> variants = variantFlags(plan);
        return variants.stream()
                .map(JvmFlagAllowList::firstRefused)
                .flatMap(Optional::stream)
                .findFirst()
                .or(() -> JvmFlagAllowList.firstRefused(plan.jvmArgs()))
                .map(flag -> "the JVM flag '" + flag + "' is not allowed on this server "
                        + "(perflab.trials.raw-jvm-flags is off); no trial was started")
                .or(() -> variants.stream()
                        .map(flags -> JvmFlagAllowList.excess(flags, bounds))
                        .flatMap(Optional::stream)
                        .findFirst()
                        .map(excess -> excess + "; no trial was started"));
    }

    /**
     * Why a stored plan may not run on the host of {@code agent}, which claimed it, if it may not: its variants' flags
     * ask for more than a quarter of the memory that agent registered ({@code memory_bytes} of its environment).
     * The service's bound was checked when the plan was queued; an agent's host may be smaller. Nothing is checked
     * where the operator set {@code perflab.trials.max-jvm-memory} (it holds for every host), where administrators
     * may give any flag, for the built-in agent (the service's host), or for an agent that registered no memory.
     */
    Optional<String> refusalOn(AgentRecord agent, ExperimentPlan plan) {
        if (rawFlagsForAdmins || operatorsBound || agent.builtIn()) {
            return Optional.empty();
        }
        long memory = AgentHost.memoryBytes(agent.environment());
        if (memory <= 0) {
            return Optional.empty();
        }
        Bounds host = Bounds.quarterOfAgent("agent '" + agent.name() + "'", memory);
        return variantFlags(plan).stream()
                .map(flags -> JvmFlagAllowList.excess(flags, host))
                .flatMap(Optional::stream)
                .findFirst()
                .map(excess -> excess + "; no trial was started");
    }

    private static List<List<String>> variantFlags(ExperimentPlan plan) {
        return Stream.of(plan.without(), plan.with())
                .filter(EngineVariant.class::isInstance)
                .map(v -> ((EngineVariant) v).jvmArgs())
                .toList();
    }
}
