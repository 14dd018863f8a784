package io.perflab.runner.experiment;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JVM flags that someone who may not run commands on a benchmark host may still give a trial JVM: heap and
 * stack sizes, the choice and sizing of the garbage collector, the JIT's tiers and threads, Netty's own
 * {@code -Dio.netty.*} properties, and the trial's kernel meter settings
 * ({@code -Dperflab.cpuSplit=tick|sampled|auto}, {@code -Dperflab.cpuSplitHz=N},
 * {@code -Dperflab.countSyscalls=true|false}, {@code -Dperflab.countHardware=true|false}), so that the overhead of
 * sampling and counting can be measured as an experiment.
 * None of them can run a program, load a library or an agent, read flags from a
 * file or unlock diagnostic options.
 *
 * <p>Everything else is refused, for example {@code -XX:OnOutOfMemoryError=cmd}, {@code -XX:OnError=cmd},
 * {@code -XX:+UnlockDiagnosticVMOptions} with {@code -XX:CompileCommand=…}, {@code -agentpath:},
 * {@code -agentlib:}, {@code -javaagent:}, {@code @argfiles}, {@code -XX:Flags=}, {@code -XX:VMOptionsFile=},
 * {@code -Djava.library.path=}, {@code --add-opens} and {@code -cp}. The list is deliberately closed: a flag
 * that a future JDK adds is refused until someone has read what it does.
 *
 * <p>A flag on the list can still ask more of the host than it has: {@code -Xms100g -XX:+AlwaysPreTouch} commits
 * a hundred gigabytes, {@code -XX:ParallelGCThreads=999999} starts that many threads. {@link #excess} measures the
 * flags of one JVM against {@link Bounds}: the memory its heap, direct buffers, code cache and metaspace may take
 * together, and the threads a flag may ask for.
 */
public final class JvmFlagAllowList {

    private static final String SIZE = "[0-9]{1,12}[kKmMgGtT]?";
    private static final String COUNT = "[0-9]{1,6}";

    /** Boolean {@code -XX:±Name} flags that only tune collection, compilation, or memory layout. */
    private static final List<String> SWITCHES = List.of(
            "UseSerialGC", "UseParallelGC", "UseG1GC", "UseZGC", "UseShenandoahGC", "ZGenerational",
            "AlwaysPreTouch", "UseCompressedOops", "UseCompressedClassPointers", "UseLargePages",
            "UseTransparentHugePages", "UseNUMA", "UseAdaptiveSizePolicy", "UseStringDeduplication",
            "UseTLAB", "ResizeTLAB", "ExplicitGCInvokesConcurrent", "DisableExplicitGC", "ParallelRefProcEnabled",
            "TieredCompilation", "BackgroundCompilation", "UseDynamicNumberOfCompilerThreads",
            "UseDynamicNumberOfGCThreads", "UseCondCardMark", "UseBiasedLocking", "UseOnStackReplacement",
            "Inline", "UseCountedLoopSafepoints", "UseContainerSupport", "PerfDisableSharedMem", "UsePerfData");

    /** {@code -XX:Name=value} flags with a number or a size as their value. */
    private static final List<String> SIZED = List.of(
            "MaxHeapSize", "InitialHeapSize", "MinHeapSize", "NewSize", "MaxNewSize", "MetaspaceSize",
            "MaxMetaspaceSize", "ReservedCodeCacheSize", "InitialCodeCacheSize", "G1HeapRegionSize",
            "MaxDirectMemorySize", "ThreadStackSize", "TLABSize", "SoftMaxHeapSize");

    private static final List<String> COUNTED = List.of(
            "TieredStopAtLevel", "CICompilerCount", "ParallelGCThreads", "ConcGCThreads", "MaxGCPauseMillis",
            "GCTimeRatio", "NewRatio", "SurvivorRatio", "MaxTenuringThreshold", "InitialTenuringThreshold",
            "ActiveProcessorCount", "MaxInlineLevel", "MaxInlineSize", "FreqInlineSize", "InlineSmallCode",
            "CompileThreshold", "G1ReservePercent", "InitiatingHeapOccupancyPercent", "MinHeapFreeRatio",
            "MaxHeapFreeRatio", "MaxRAMPercentage", "InitialRAMPercentage", "MinRAMPercentage", "AutoBoxCacheMax");

    private static final List<Pattern> ALLOWED = List.of(
            Pattern.compile("-Xm[sxn]" + SIZE),
            Pattern.compile("-Xss" + SIZE),
            Pattern.compile("-X(batch|int|mixed|comp|share:(auto|off))"),
            Pattern.compile("-XX:[+-](" + String.join("|", SWITCHES) + ")"),
            Pattern.compile("-XX:(" + String.join("|", SIZED) + ")=" + SIZE),
            Pattern.compile("-XX:(" + String.join("|", COUNTED) + ")=" + COUNT + "(\\.[0-9]{1,3})?"),
            Pattern.compile("-Dio\\.netty\\.[A-Za-z0-9.]{1,100}=[A-Za-z0-9._-]{0,100}"),
            Pattern.compile("-Dperflab\\.(cpuSplit=(tick|sampled|auto)|cpuSplitHz=[0-9]{1,6}"
                    + "|count(Syscalls|Hardware)=(true|false))"),
            Pattern.compile("-ea|-da|-esa|-dsa|-server"));

    /** The most threads (or processors) one flag may ask for: far above any host PerfLab measures on. */
    public static final int MAX_THREADS = 256;

    private static final Pattern THREADS = Pattern.compile(
            "-XX:(?:ParallelGCThreads|ConcGCThreads|CICompilerCount|ActiveProcessorCount)=(" + COUNT + ")");

    /**
     * What the flags of one trial JVM may ask of its host.
     *
     * @param hostMemoryBytes the host's physical memory, of which {@code -XX:…RAMPercentage} flags take a share
     * @param memoryBytes the most that the heap, direct memory, code cache and metaspace the flags size may take
     *     together
     * @param threads the most threads of one kind (GC, compiler) or processors one flag may ask for
     * @param where where the bound holds and whence it comes, as a refusal ends: "on this server (…)"
     */
    public record Bounds(long hostMemoryBytes, long memoryBytes, int threads, String where) {

        public Bounds {
            if (hostMemoryBytes <= 0 || memoryBytes <= 0 || threads <= 0) {
                throw new IllegalArgumentException("bounds must be positive: " + hostMemoryBytes + " bytes of host, "
                        + memoryBytes + " bytes, " + threads + " threads");
            }
            Objects.requireNonNull(where, "where");
        }

        /** The service's bound: the operator's {@code perflab.trials.max-jvm-memory}, or else a quarter of its host. */
        public Bounds(long hostMemoryBytes, long memoryBytes, int threads) {
            this(hostMemoryBytes, memoryBytes, threads, "on this server (perflab.trials.max-jvm-memory; by default a "
                    + "quarter of the host's " + describe(hostMemoryBytes) + ")");
        }

        /**
         * A quarter of the host's memory per trial JVM: the two JVMs of a pair run at once, beside the service, its
         * database and the page cache.
         */
        public static Bounds quarterOf(long hostMemoryBytes) {
            return new Bounds(hostMemoryBytes, hostMemoryBytes / 4, MAX_THREADS);
        }

        /** A quarter of the memory of the host an agent runs the trials on, {@code agent} naming it. */
        public static Bounds quarterOfAgent(String agent, long hostMemoryBytes) {
            return new Bounds(hostMemoryBytes, hostMemoryBytes / 4, MAX_THREADS, "on the host of " + agent
                    + ", which runs its trials (a quarter of its " + describe(hostMemoryBytes) + ")");
        }
    }

    private JvmFlagAllowList() {
    }

    /**
     * Why the flags of one JVM ask more of the host than {@code bounds} allow, if they do: a flag for more threads
     * than {@link Bounds#threads}, or sizes whose largest heap size, direct memory, code cache and metaspace add up
     * to more than {@link Bounds#memoryBytes} ({@link JvmMemoryFlags}). Flags that set none of these ask nothing (the
     * JVM's defaults are fractions of the host). Call it on flags {@link #allows} takes; others count for nothing here.
     */
    public static Optional<String> excess(List<String> flags, Bounds bounds) {
        return excess(List.of(), "", flags, bounds);
    }

    /**
     * As {@link #excess(List, Bounds)} for the whole command line of a trial JVM: {@code fixed}, the flags its host
     * starts every trial JVM with (the operator's), then {@code own}, a request's. They are counted as the JVM takes
     * them ({@link JvmMemoryFlags#asTheJvmTakes}): a flag of {@code own} replaces a fixed one it gives again
     * ({@code -Xmx} a fixed {@code -Xmx}), while other sizes add to the fixed ones. Only {@code own} is held to the
     * bound on threads: the fixed flags are the operator's choice. A refusal marks the fixed flags it counted, and
     * names every fixed flag that sizes memory (no other: an operator's {@code -D} flags may hold what a refusal
     * should not show).
     *
     * @param fixedFrom where the fixed flags come from, as the refusal says it: {@code on this server (…)}
     */
    public static Optional<String> excess(List<String> fixed, String fixedFrom, List<String> own, Bounds bounds) {
        for (String flag : own) {
            Matcher threads = flag == null ? null : THREADS.matcher(flag);
            if (threads != null && threads.matches() && Integer.parseInt(threads.group(1)) > bounds.threads()) {
                return Optional.of("the JVM flag '" + flag + "' asks for more than " + bounds.threads()
                        + " threads or processors, the most a trial JVM may have");
            }
        }
        List<String> commandLine = new ArrayList<>(fixed);
        commandLine.addAll(own);
        JvmMemoryFlags.Ask ask = JvmMemoryFlags.of(commandLine, bounds.hostMemoryBytes());
        if (ask.bytes() <= bounds.memoryBytes()) {
            return Optional.empty();
        }
        Set<String> replaced = new HashSet<>();
        own.stream().filter(Objects::nonNull).forEach(flag -> replaced.add(JvmMemoryFlags.option(flag)));
        Set<String> fixedCounted = new HashSet<>();
        JvmMemoryFlags.asTheJvmTakes(fixed).stream().filter(flag -> !replaced.contains(JvmMemoryFlags.option(flag)))
                .forEach(fixedCounted::add);
        List<String> named = ask.flags().stream()
                .map(flag -> "'" + flag + "'" + (fixedCounted.contains(flag) ? " (fixed)" : "")).toList();
        String what = named.size() == 1 ? "the JVM flag " + named.get(0) + " asks for "
                : "the JVM flags " + String.join(", ", named) + " ask for ";
        List<String> fixedSizes = JvmMemoryFlags.asTheJvmTakes(fixed).stream().filter(JvmMemoryFlags::sizesMemory)
                .toList();
        return Optional.of(what + describe(ask.bytes()) + " of memory; a trial JVM's heap, direct memory, code cache "
                + "and metaspace may take at most " + describe(bounds.memoryBytes()) + " together " + bounds.where()
                + (fixedSizes.isEmpty() ? "" : "; the fixed flags every trial JVM starts with " + fixedFrom
                        + " are counted too: " + String.join(" ", fixedSizes) + " (a flag given again replaces its "
                        + "fixed one, as -Xmx does; other sizes add to them)"));
    }

    /** {@code bytes} in the largest binary unit it reaches, e.g. {@code 6 GiB}, {@code 1.5 GiB}. */
    public static String describe(long bytes) {
        String[] units = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        int unit = 0;
        double value = bytes;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        if (unit == 0) {
            return bytes + " bytes";
        }
        String number = String.format(Locale.ROOT, "%.1f", value);
        return (number.endsWith(".0") ? number.substring(0, number.length() - 2) : number) + " " + units[unit];
    }

    /** Whether {@code flag}, one command-line word, is on the list. */
    public static boolean allows(String flag) {
        return flag != null && ALLOWED.stream().anyMatch(p -> p.matcher(flag).matches());
    }

    /** The first flag of {@code flags} that is not on the list, if any. */
    public static Optional<String> firstRefused(List<String> flags) {
        return flags.stream().filter(f -> !allows(f)).findFirst();
    }

    /**
     * Throws unless every flag is on the list.
     *
     * @param field what the user called the list, for the message (e.g. {@code withJvmArgs})
     * @throws IllegalArgumentException naming the field and the first refused flag
     */
    public static void requireAllowed(String field, List<String> flags) {
        firstRefused(flags).ifPresent(flag -> {
            throw new IllegalArgumentException(field + ": " + refusal(flag));
        });
    }

    /** Why {@code flag} is refused, with what is allowed instead. */
    public static String refusal(String flag) {
        return "the JVM flag '" + printable(flag) + "' is not allowed; trial JVMs take heap, stack, GC and JIT "
                + "flags such as -Xmx1g, -XX:+UseG1GC, -XX:TieredStopAtLevel=1, -Dio.netty.* properties and "
                + "-Dperflab.cpuSplit=tick|sampled|auto, -Dperflab.cpuSplitHz=N, -Dperflab.countSyscalls=true|false, "
                + "-Dperflab.countHardware=true|false. "
                + "Flags that can run or load code (-XX:On…Error, agents, @argfiles, diagnostic unlocks, other -D "
                + "properties) are refused";
    }

    /**
     * {@code flag} as a message quotes it: its first 80 characters, each control character, character that hides
     * or reorders text (a right-to-left override), line or paragraph separator or half of a surrogate pair written as
     * its escape ({@code \u001B}), as the service's messages write them.
     */
    private static String printable(String flag) {
        if (flag == null) {
            return "null";
        }
        int end = flag.length() <= 80 ? flag.length()
                : Character.isHighSurrogate(flag.charAt(79)) && Character.isLowSurrogate(flag.charAt(80)) ? 79 : 80;
        StringBuilder shown = new StringBuilder();
        flag.substring(0, end).codePoints().forEach(c -> {
            int type = Character.getType(c);
            // a line or paragraph separator breaks the line in log viewers and editors
            boolean hidden = (type == Character.FORMAT && c != '\u200D') || type == Character.SURROGATE
                    || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
            if (Character.isISOControl(c) || hidden) {
                shown.append(String.format("\\u%04X", c));
            } else {
                shown.appendCodePoint(c);
            }
        });
        return end < flag.length() ? shown + "…" : shown.toString();
    }
}
