package io.perflab.agent;

import io.perflab.runner.experiment.JvmMemoryFlags;
import io.perflab.runner.metering.CpuTimeAccounting;
import io.perflab.runner.metering.KernelMeter;
import io.perflab.runner.rpcbench.HostCount;
import io.perflab.runner.trial.HostEnvironment;
import io.perflab.system.PrintableText;
import io.perflab.system.Texts;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** The host environment an agent registers with: the runner's, plus how the kernel accounts CPU time. */
public final class AgentHost {

    private AgentHost() {
    }

    /** The longest value registered; longer ones (a JVM's flags) are cut. */
    public static final int MAX_VALUE = 2000;

    /** The environment entry of the JVM's {@code os.name}: half of the host's platform ({@link HostPlatform}). */
    public static final String OS_NAME = "os_name";

    /** The environment entry of the JVM's {@code os.arch}: the other half of the host's platform. */
    public static final String OS_ARCH = "os_arch";

    /** The environment entry of the host's physical memory in bytes, a whole number. */
    public static final String MEMORY = "memory_bytes";

    /**
     * The environment entry of the fixed flags this agent starts every trial JVM with ({@code perflab agent
     * --jvm-args}, or its defaults) that size memory, separated by spaces: the service counts them with a request's
     * flags against the memory a trial JVM may take on this host. Only these: its other fixed flags may hold what the
     * agents page, open to read, should not show.
     */
    public static final String TRIAL_MEMORY_FLAGS = "trial_memory_flags";

    /**
     * JVM, host name, CPU model, cores, allowed CPUs, kernel, load, the platform ({@value #OS_NAME} and
     * {@value #OS_ARCH}; the service gives this agent an experiment whose engine options run on one platform only if
     * it is this one), the host's memory ({@value #MEMORY}; the service holds the trial JVMs it hands this agent
     * to a quarter of it) and the CPU accounting mode, each value cut to {@value #MAX_VALUE} characters. The agent's
     * own JVM flags are left out: the agents page is open to read, and an operator's {@code -D} flags may hold what
     * it should not show.
     */
    public static Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>(HostEnvironment.capture());
        environment.remove("jvm_flags");
        HostPlatform platform = HostPlatform.current();
        environment.put(OS_NAME, platform.osName());
        environment.put(OS_ARCH, platform.osArch());
        environment.put("cpu_accounting", CpuTimeAccounting.host().describe());
        environment.put(MEMORY, Long.toString(HostEnvironment.memoryBytes()));
        environment.replaceAll((key, value) -> Texts.cut(value, MAX_VALUE));
        return environment;
    }

    /**
     * What trials on this host count of the counts a host may refuse ({@link HostCount}), for an agent whose trial
     * JVMs start with {@code fixedFlags}: each one the kernel lets this process make ({@link #notCounted}) and the
     * flags do not turn off ({@code -Dperflab.countSyscalls=false}, {@code -Dperflab.countHardware=false}, the last
     * of them counting). What an agent registers as {@code systemCalls} and {@code hardwareCounters}: the service
     * gives an agent that says false, or nothing, no experiment whose stopping target names the count's metric.
     */
    public static HostCounts counts(List<String> fixedFlags) {
        return counts(count -> notCounted(count).isEmpty(), fixedFlags);
    }

    /** As {@link #counts(List)}, on a host that makes the counts {@code hostMakes} says it makes. */
    static HostCounts counts(Predicate<HostCount> hostMakes, List<String> fixedFlags) {
        Predicate<HostCount> made = count -> hostMakes.test(count)
                && !KernelMeter.propertyIn(fixedFlags, count.property()).filter("false"::equals).isPresent();
        return new HostCounts(made.test(HostCount.SYSCALLS), made.test(HostCount.HARDWARE));
    }

    /**
     * Why trials on this host do not make {@code count} ({@link HostCount#notCountedHere()}): the kernel refuses this
     * process the system-call tracepoint, or the CPU's hardware counters, which most virtual machines do not give.
     * Empty where they make it. Tried once for each, when first asked, and kept: a host's answer does not change
     * while its agent runs.
     */
    public static Optional<String> notCounted(HostCount count) {
        return NotCounted.REASONS.get(count);
    }

    /** Holds {@link #notCounted}'s answers, tried when one is first asked. */
    private static final class NotCounted {
        static final Map<HostCount, Optional<String>> REASONS = Arrays.stream(HostCount.values()).collect(
                Collectors.toUnmodifiableMap(count -> count, HostCount::notCountedHere));
    }

    /** The entry {@value #TRIAL_MEMORY_FLAGS} of an agent whose trial JVMs start with {@code fixedFlags}. */
    public static String trialMemoryFlags(List<String> fixedFlags) {
        return String.join(" ", fixedFlags.stream().filter(JvmMemoryFlags::sizesMemory).toList());
    }

    /**
     * The fixed flags that size memory an agent registered ({@value #TRIAL_MEMORY_FLAGS}); none where it registered
     * none (an agent of an earlier version).
     *
     * @throws IllegalArgumentException naming a word that is no flag sizing a JVM's memory
     */
    public static List<String> trialMemoryFlags(Map<String, String> environment) {
        String value = environment.get(TRIAL_MEMORY_FLAGS);
        if (value == null || value.isBlank()) {
            return List.of();
        }
        List<String> flags = List.of(value.strip().split("\\s+"));
        for (String flag : flags) {
            if (!JvmMemoryFlags.sizesMemory(flag)) {
                throw new IllegalArgumentException("the fixed flags of the agent's trial JVMs that size memory "
                        + "(heap, direct memory, code cache, metaspace), separated by spaces, e.g. '-Xms512m "
                        + "-Xmx512m'; '" + PrintableText.Validator.quoted(flag) + "' is none");
            }
        }
        return flags;
    }

    /**
     * The memory an agent registered ({@value #MEMORY}), or 0 where it registered none (an agent of an earlier
     * version).
     *
     * @throws IllegalArgumentException for a value that is not a positive whole number of bytes
     */
    public static long memoryBytes(Map<String, String> environment) {
        String value = environment.get(MEMORY);
        if (value == null) {
            return 0;
        }
        try {
            long bytes = Long.parseLong(value);
            if (bytes > 0) {
                return bytes;
            }
        } catch (NumberFormatException notANumber) {
            // said below
        }
        throw new IllegalArgumentException("the host's physical memory in bytes, a whole number above 0, e.g. "
                + (16L << 30) + " for 16 GiB; got '" + PrintableText.Validator.quoted(value) + "'");
    }
}
