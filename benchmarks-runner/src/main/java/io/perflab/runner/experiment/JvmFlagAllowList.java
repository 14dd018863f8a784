package io.perflab.runner.experiment;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The JVM flags that someone who may not run commands on a benchmark host may still give a trial JVM: heap and
 * stack sizes, the choice and sizing of the garbage collector, the JIT's tiers and threads, Netty's own
 * {@code -Dio.netty.*} properties, and the trial's kernel meter settings
 * ({@code -Dperflab.cpuSplit=tick|sampled|auto}, {@code -Dperflab.cpuSplitHz=N},
 * {@code -Dperflab.countSyscalls=true|false}), so that the overhead of sampling can be measured as an experiment.
 * None of them can run a program, load a library or an agent, read flags from a
 * file or unlock diagnostic options.
 *
 * <p>Everything else is refused, for example {@code -XX:OnOutOfMemoryError=cmd}, {@code -XX:OnError=cmd},
 * {@code -XX:+UnlockDiagnosticVMOptions} with {@code -XX:CompileCommand=…}, {@code -agentpath:},
 * {@code -agentlib:}, {@code -javaagent:}, {@code @argfiles}, {@code -XX:Flags=}, {@code -XX:VMOptionsFile=},
 * {@code -Djava.library.path=}, {@code --add-opens} and {@code -cp}. The list is deliberately closed: a flag
 * that a future JDK adds is refused until someone has read what it does.
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
                    + "|countSyscalls=(true|false))"),
            Pattern.compile("-ea|-da|-esa|-dsa|-server"));

    private JvmFlagAllowList() {
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
                + "-Dperflab.cpuSplit=tick|sampled|auto, -Dperflab.cpuSplitHz=N, -Dperflab.countSyscalls=true|false. "
                + "Flags that can run or load code (-XX:On…Error, agents, @argfiles, diagnostic unlocks, other -D "
                + "properties) are refused";
    }

    private static String printable(String flag) {
        String shown = flag == null ? "null" : flag.codePoints()
                .map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return shown.length() > 80 ? shown.substring(0, 80) + "…" : shown;
    }
}
