package io.perflab.runner.metering;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Reads everything a measured window needs from this process in one go: the monotonic clock,
 * {@code getrusage(RUSAGE_SELF)}, the JIT compiler threads' share of it ({@link CompilerThreads}), the bytes
 * allocated by all threads so far and the collectors' counters.
 *
 * <p>Each source is a function so that tests can drive the meter with known readings.
 */
public final class ProcessMeter {

    private final LongSupplier nanoClock;
    private final Supplier<ResourceUsage> usage;
    private final LongSupplier allocatedBytes;
    private final Supplier<GcTotals> gc;
    private final Supplier<CompilerThreads.Reading> compilerThreads;
    private CompilerThreads.Reading lastCompilers = CompilerThreads.Reading.ZERO;
    private long compilerMicrosSoFar;

    /** A meter that charges the JIT compiler threads' CPU to the window like any other thread's. */
    public ProcessMeter(LongSupplier nanoClock, Supplier<ResourceUsage> usage, LongSupplier allocatedBytes,
                        Supplier<GcTotals> gc) {
        this(nanoClock, usage, allocatedBytes, gc, () -> CompilerThreads.Reading.ZERO);
    }

    /**
     * @param compilerThreads cumulative CPU and context switches of the JIT compiler threads, which the window
     *     reports apart from the rest of the process
     */
    public ProcessMeter(LongSupplier nanoClock, Supplier<ResourceUsage> usage, LongSupplier allocatedBytes,
                        Supplier<GcTotals> gc, Supplier<CompilerThreads.Reading> compilerThreads) {
        this.nanoClock = nanoClock;
        this.usage = usage;
        this.allocatedBytes = allocatedBytes;
        this.gc = gc;
        this.compilerThreads = compilerThreads;
    }

    /**
     * The meter of this JVM: {@link System#nanoTime()}, {@code RUSAGE_SELF}, the compiler threads from
     * {@code /proc/self/task} (none where that cannot be read), the platform MXBeans.
     */
    public static ProcessMeter forThisProcess() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        if (!threads.isThreadAllocatedMemorySupported()) {
            throw new UnsupportedOperationException("this JVM cannot report allocated bytes per thread");
        }
        threads.setThreadAllocatedMemoryEnabled(true);
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        CompilerThreads.Reader reader = new CompilerThreads.Reader();
        Supplier<CompilerThreads.Reading> compilers = reader.read().isPresent()
                ? orUnknown(reader::read)
                : () -> CompilerThreads.Reading.ZERO;
        return new ProcessMeter(System::nanoTime, ResourceUsage::self, threads::getTotalThreadAllocatedBytes,
                () -> GcTotals.of(collectors), compilers);
    }

    /**
     * The compiler threads' readings of {@code reader}, {@link CompilerThreads.Reading#UNKNOWN} where it gives none.
     * A reading that fails now and then ({@code /proc/self/task} cannot be listed while the process is out of file
     * descriptors) must not read as no compiler thread at all: the window after it would take all the compiler
     * threads' CPU time since the JVM started out of its own, driving it below zero.
     */
    static Supplier<CompilerThreads.Reading> orUnknown(Supplier<Optional<CompilerThreads.Reading>> reader) {
        return () -> reader.get().orElse(CompilerThreads.Reading.UNKNOWN);
    }

    /**
     * A reading of every source. Allocation, GC and the compiler threads are read before the clock and
     * {@code getrusage}, so that reading them falls outside a window that starts with this snapshot, and inside
     * the previous one when the snapshot ends a window; either way, it is charged once. The compiler threads are
     * read once more after the clock: a window takes out what they used from the start's second reading to the
     * end's first, an interval inside the one {@code getrusage} measured ({@link Snapshot#since}).
     */
    public Snapshot snapshot() {
        long allocated = allocatedBytes.getAsLong();
        GcTotals collections = gc.get();
        CompilerThreads.Reading compilers = compilerThreads.get();
        ResourceUsage resources = usage.get();
        long now = nanoClock.getAsLong();
        CompilerThreads.Reading compilersAfter = compilerThreads.get();
        return new Snapshot(now, resources, compilers, compilersAfter, allocated, collections);
    }

    /**
     * The JIT compiler threads' CPU time so far, in microseconds (0 where unknown): the sum of what they used from
     * each call to the next ({@link CompilerThreads.Reading#since}), so that it never falls. Their readings' own
     * sum falls when a compiler thread ends (the JVM ends idle ones unless run with
     * {@code -XX:-UseDynamicNumberOfCompilerThreads}), and a warmup step in which one ended read as a step in which
     * the JIT was quiet, however busy the other compiler threads were.
     */
    public synchronized long compilerCpuMicros() {
        CompilerThreads.Reading now = compilerThreads.get();
        if (!now.equals(CompilerThreads.Reading.UNKNOWN)) {
            compilerMicrosSoFar += now.since(lastCompilers).cpuMicros();
            lastCompilers = now;
        }
        return compilerMicrosSoFar;
    }

    /** Counts of all collectors together. */
    public record GcTotals(long collections, long millis) {

        static GcTotals of(List<GarbageCollectorMXBean> collectors) {
            long count = 0;
            long millis = 0;
            for (GarbageCollectorMXBean collector : collectors) {
                count += Math.max(0, collector.getCollectionCount());
                millis += Math.max(0, collector.getCollectionTime());
            }
            return new GcTotals(count, millis);
        }
    }

    /**
     * One reading of the meter's sources.
     *
     * @param usage the whole process
     * @param compilerThreads the JIT compiler threads, part of {@code usage}, read just before it
     * @param compilerThreadsAfter the same, read just after {@code usage} and the clock
     */
    public record Snapshot(long nanoTime, ResourceUsage usage, CompilerThreads.Reading compilerThreads,
                           CompilerThreads.Reading compilerThreadsAfter, long allocatedBytes, GcTotals gc) {

        /**
         * What happened between {@code start} and this snapshot. The compiler threads' share comes off the process's
         * figures: what they used from the start's reading after {@code getrusage} to this one's before it, so that
         * their interval lies inside the process's. Read the other way round, a compilation running while the
         * meter reads (the window's own code compiled under {@code -Xbatch}, seen at a 16th window of 0.5 s) was
         * taken out of a window whose process figures did not hold it, and drove its CPU per call below zero. Where
         * their user/system split, made from 10 ms ticks, claims more system (or user) time than the process's own
         * split has, the excess is moved to the other side, so that no figure goes negative and the total stays
         * exact. Their page faults come off the process's at most down to none: a compiler at work faults in new
         * memory at a rate that the rest of a process at steady state does not come near. Where either reading of
         * the compiler threads failed ({@link CompilerThreads.Reading#UNKNOWN}), nothing comes off: the window then
         * holds their time, and {@code jit_cpu_ms_in_window} reads 0.
         */
        public Window since(Snapshot start) {
            ResourceUsage process = usage.minus(start.usage);
            ResourceUsage compilers = compilerThreads.since(start.compilerThreadsAfter);
            long user = compilers.userMicros();
            long system = compilers.systemMicros();
            if (system > process.systemMicros()) {
                user += system - process.systemMicros();
                system = process.systemMicros();
            }
            if (user > process.userMicros()) {
                system += user - process.userMicros();
                user = process.userMicros();
            }
            compilers = new ResourceUsage(user, system, compilers.voluntaryContextSwitches(),
                    compilers.involuntaryContextSwitches(), Math.min(compilers.pageFaults(), process.pageFaults()));
            return new Window(nanoTime - start.nanoTime, process.minus(compilers), compilers,
                    allocatedBytes - start.allocatedBytes, gc.collections() - start.gc.collections(),
                    gc.millis() - start.gc.millis());
        }
    }

    /**
     * The deltas over a measured window.
     *
     * @param elapsedNanos monotonic wall time of the window
     * @param usage {@code getrusage(RUSAGE_SELF)} difference less the JIT compiler threads': every other thread
     *     of the process, client and server, live or dead
     * @param compilerThreads what the JIT compiler threads used in the window
     * @param allocatedBytes bytes allocated by all threads, live or dead
     * @param gcCount collections of all collectors
     * @param gcMillis accumulated collection time reported by the collectors
     */
    public record Window(long elapsedNanos, ResourceUsage usage, ResourceUsage compilerThreads,
                         long allocatedBytes, long gcCount, long gcMillis) {

        /** The whole process: {@code usage} plus the compiler threads. */
        public ResourceUsage processUsage() {
            return usage.plus(compilerThreads);
        }
    }
}
