package io.perflab.experiment;

import io.perflab.agent.AgentHost;
import io.perflab.agent.HostLabels;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.JvmFlagAllowList;
import io.perflab.runner.experiment.JvmFlagAllowList.Bounds;
import io.perflab.runner.experiment.JvmMemoryFlags;
import io.perflab.runner.trial.HostEnvironment;
import io.perflab.system.InvalidInputException;
import io.perflab.system.PerfLabProperties;
import io.perflab.system.PrintableText;
import io.perflab.system.SettingException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
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
 * {@code perflab.trials.max-jvm-memory}, and {@value JvmFlagAllowList#MAX_THREADS} threads a flag. A trial JVM starts
 * with its host's fixed flags before the request's, so they are counted together, as the JVM takes them: this
 * service's ({@code perflab.trials.jvm-args}, or the defaults) where it runs trials itself, an agent's (those it
 * registered, {@link AgentHost#TRIAL_MEMORY_FLAGS}) at its claim. An experiment that asks for host labels the
 * built-in agent's host lacks runs only on agents, so this service's fixed flags are not counted with its flags. Fixed
 * flags that alone take more than the bound would leave no experiment able to run there: this service refuses to
 * start with them, and an agent to register.
 */
@Component
public class JvmFlagPolicy {

    private final boolean rawFlagsForAdmins;
    private final List<String> fixedFlags;
    private final Bounds bounds;
    private final boolean operatorsBound;
    private final boolean localTrials;
    private final HostLabels builtInLabels;

    /**
     * @throws SettingException when this service runs trials and its fixed flags alone take more memory than a trial
     *     JVM may
     */
    @Autowired
    public JvmFlagPolicy(PerfLabProperties properties, AgentProperties agents) {
        this(properties.trials().rawJvmFlags(), properties.trials().jvmArgs(),
                bounds(hostMemoryBytes(), properties.trials().maxJvmMemoryBytes()),
                properties.trials().maxJvmMemoryBytes() != null, agents.builtIn(), builtInLabels(agents));
    }

    /** The built-in agent's labels; none where the setting does not read (the built-in agent refuses to start). */
    private static HostLabels builtInLabels(AgentProperties agents) {
        try {
            return agents.builtInHostLabels();
        } catch (SettingException unreadable) {
            return HostLabels.NONE;
        }
    }

    /** The policy of a service that runs trials itself. */
    JvmFlagPolicy(boolean rawFlagsForAdmins, List<String> fixedFlags, Bounds bounds, boolean operatorsBound) {
        this(rawFlagsForAdmins, fixedFlags, bounds, operatorsBound, true, HostLabels.NONE);
    }

    /**
     * @param fixedFlags the operator's fixed flags for every trial JVM ({@code perflab.trials.jvm-args}), or none
     * @param bounds what a request's flags may ask of the host
     * @param operatorsBound whether {@code bounds} is the operator's {@code perflab.trials.max-jvm-memory}, which
     *     holds on every agent's host too; else each agent's host is held to a quarter of its own memory as well
     * @param localTrials whether this service runs trials itself (its built-in agent, {@code perflab.agents.built-in}):
     *     only then do its fixed flags reach a trial JVM, and count
     * @param builtInLabels the labels of the built-in agent's host ({@code perflab.agents.built-in-labels}): its fixed
     *     flags count for an experiment only if it could claim it
     * @throws SettingException when {@code localTrials} and the fixed flags alone take more memory than {@code bounds}
     *     allow
     */
    JvmFlagPolicy(boolean rawFlagsForAdmins, List<String> fixedFlags, Bounds bounds, boolean operatorsBound,
                  boolean localTrials, HostLabels builtInLabels) {
        this.rawFlagsForAdmins = rawFlagsForAdmins;
        this.fixedFlags = List.copyOf(fixedFlags);
        this.bounds = bounds;
        this.operatorsBound = operatorsBound;
        this.localTrials = localTrials;
        this.builtInLabels = builtInLabels;
        if (localTrials) {
            JvmMemoryFlags.Ask ask = JvmMemoryFlags.of(fixedFlags(), bounds.hostMemoryBytes());
            if (ask.bytes() > bounds.memoryBytes()) {
                throw new SettingException("perflab.trials.jvm-args: the fixed flags every trial JVM starts with "
                        + (this.fixedFlags.isEmpty() ? "(the defaults, which perflab.trials.jvm-args replaces) " : "")
                        + "take " + JvmFlagAllowList.describe(ask.bytes()) + " of memory by themselves ("
                        + String.join(" ", memorySizes(fixedFlags())) + "), more than a trial JVM may take "
                        + bounds.where() + ": " + JvmFlagAllowList.describe(bounds.memoryBytes()) + ". Every "
                        + "experiment's flags are counted "
                        + "with them, so none could run here: give smaller sizes in perflab.trials.jvm-args, a larger "
                        + "perflab.trials.max-jvm-memory, or perflab.agents.built-in=false if agents run the trials");
            }
        }
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
     * The fixed flags a request's are counted with on this server: none where it runs no trial itself, or where its
     * built-in agent could not claim an experiment that asks for {@code hostLabels}.
     */
    private List<String> localFixedFlags(HostLabels hostLabels) {
        return localTrials && builtInLabels.satisfies(hostLabels) ? fixedFlags() : List.of();
    }

    /** Where this server's fixed flags come from, as a refusal says it. */
    private String localFixedFrom() {
        return "on this server (" + (fixedFlags.isEmpty() ? "the defaults, which perflab.trials.jvm-args replaces"
                : "perflab.trials.jvm-args") + ")";
    }

    /**
     * {@code flags} if this caller may give them, else a 400 naming {@code field} and the first refused flag, or
     * what they ask beyond the bounds, counted with this server's fixed flags where it runs trials itself and could
     * claim an experiment that asks for {@code hostLabels}.
     */
    List<String> check(String field, List<String> flags, boolean admin, HostLabels hostLabels) {
        if (admin && rawFlagsForAdmins) {
            return flags;
        }
        Optional<String> refused = JvmFlagAllowList.firstRefused(flags);
        if (refused.isPresent()) {
            throw InvalidInputException.of(field, JvmFlagAllowList.refusal(refused.get()) + (admin
                    ? "; an operator can let administrators give any flag with perflab.trials.raw-jvm-flags=true"
                    : ""));
        }
        JvmFlagAllowList.excess(localFixedFlags(hostLabels), localFixedFrom(), flags, bounds).ifPresent(excess -> {
            throw InvalidInputException.of(field, excess);
        });
        return flags;
    }

    /**
     * Why a stored plan may not run on this server, if it may not: a plan queued before the allow-list existed,
     * or while raw flags were allowed, runs only while they still are; its flags, with this server's fixed flags,
     * are held to its bounds.
     */
    Optional<String> refusal(ExperimentPlan plan) {
        return refusal(plan, variants -> variants.stream()
                .map(flags -> JvmFlagAllowList.excess(localFixedFlags(HostLabels.NONE), localFixedFrom(), flags,
                        bounds))
                .flatMap(Optional::stream)
                .findFirst());
    }

    /**
     * Why a stored plan may not run on this server's built-in agent or on the host of {@code agent}, which claimed
     * it, if it may not: flags this server no longer allows ({@link #refusal}), or flags that ask, counted with the
     * fixed flags the agent registered, more than the operator's {@code perflab.trials.max-jvm-memory} or else a
     * quarter of the memory that agent registered ({@code memory_bytes} of its environment). The service's bound was
     * checked when the plan was queued, with its own fixed flags; an agent's host may be smaller, and starts its
     * trial JVMs with fixed flags of its own. Where administrators may give any flag nothing is bounded, and an agent
     * that registered no memory is held to the service's bound alone, with no fixed flags (an agent of an earlier
     * version registered none).
     */
    Optional<String> refusalOn(AgentRecord agent, ExperimentPlan plan) {
        if (agent.builtIn()) {
            return refusal(plan);
        }
        List<String> fixed = agentFixedFlags(agent.environment());
        String from = agentFixedFrom(agent.name());
        Optional<Bounds> host = agentBounds(agent.name(), agent.environment());
        return refusal(plan, variants -> variants.stream()
                .map(flags -> operatorsBound ? JvmFlagAllowList.excess(fixed, from, flags, bounds)
                        : JvmFlagAllowList.excess(flags, bounds)
                                .or(() -> host.flatMap(h -> JvmFlagAllowList.excess(fixed, from, flags, h))))
                .flatMap(Optional::stream)
                .findFirst());
    }

    /**
     * Why an agent named {@code name} of this {@code environment} may run no engine experiment here, if so: the
     * fixed flags it starts every trial JVM with take by themselves more memory than a trial JVM may on its host (the
     * operator's {@code perflab.trials.max-jvm-memory}, or else a quarter of the memory it registered), so that every
     * plan would be refused at its claim. Its registration, and its polls, are refused instead. Its environment was
     * checked when it registered ({@link AgentHost#trialMemoryFlags(Map)}, {@link AgentHost#memoryBytes}).
     */
    Optional<String> agentRefusal(String name, Map<String, String> environment) {
        List<String> fixed = agentFixedFlags(environment);
        if (rawFlagsForAdmins) {
            return Optional.empty();
        }
        Optional<Bounds> host = operatorsBound ? Optional.of(bounds) : agentBounds(name, environment);
        if (host.isEmpty()) {
            return Optional.empty();
        }
        JvmMemoryFlags.Ask ask = JvmMemoryFlags.of(fixed, host.get().hostMemoryBytes());
        if (ask.bytes() <= host.get().memoryBytes()) {
            return Optional.empty();
        }
        return Optional.of("the fixed flags agent '" + name + "' starts every trial JVM with (perflab agent "
                + "--jvm-args, or its defaults) take " + JvmFlagAllowList.describe(ask.bytes()) + " of memory by "
                + "themselves (" + String.join(" ", memorySizes(fixed)) + "), more than a trial JVM may take "
                + host.get().where() + ": " + JvmFlagAllowList.describe(host.get().memoryBytes()) + ". Every "
                + "experiment's flags are counted with them, so it could run none: start it with smaller sizes in "
                + "--jvm-args" + (operatorsBound ? ", or ask the operator for a larger perflab.trials.max-jvm-memory"
                : ""));
    }

    /** Those of {@code fixed} that size memory, as the JVM takes them. */
    private static List<String> memorySizes(List<String> fixed) {
        return JvmMemoryFlags.asTheJvmTakes(fixed).stream().filter(JvmMemoryFlags::sizesMemory).toList();
    }

    /** The fixed flags an agent registered, that size memory; none where they do not read (said at registration). */
    private static List<String> agentFixedFlags(Map<String, String> environment) {
        try {
            return AgentHost.trialMemoryFlags(environment);
        } catch (IllegalArgumentException unreadable) {
            return List.of();
        }
    }

    private static String agentFixedFrom(String name) {
        return "on agent '" + name + "' (perflab agent --jvm-args, or its defaults)";
    }

    /** A quarter of the memory agent {@code name} registered; none where it registered none. */
    private static Optional<Bounds> agentBounds(String name, Map<String, String> environment) {
        long memory = AgentHost.memoryBytes(environment);
        return memory <= 0 ? Optional.empty() : Optional.of(Bounds.quarterOfAgent("agent '" + name + "'", memory));
    }

    /**
     * The refusal of {@code plan}'s flags beyond the allow-list, else of what {@code excess} finds in its variants'
     * flags; none while administrators may give any flag.
     */
    private Optional<String> refusal(ExperimentPlan plan, Function<List<List<String>>, Optional<String>> excess) {
        if (rawFlagsForAdmins) {
            return Optional.empty();
        }
        List<List<String>> variants = variantFlags(plan);
        return variants.stream()
                .map(JvmFlagAllowList::firstRefused)
                .flatMap(Optional::stream)
                .findFirst()
                .or(() -> JvmFlagAllowList.firstRefused(plan.jvmArgs()))
                .map(flag -> "the JVM flag '" + PrintableText.Validator.quoted(flag) + "' is not allowed on this "
                        + "server (perflab.trials.raw-jvm-flags is off); no trial was started")
                .or(() -> excess.apply(variants).map(why -> why + "; no trial was started"));
    }

    private static List<List<String>> variantFlags(ExperimentPlan plan) {
        return Stream.of(plan.without(), plan.with())
                .filter(EngineVariant.class::isInstance)
                .map(v -> ((EngineVariant) v).jvmArgs())
                .toList();
    }
}
