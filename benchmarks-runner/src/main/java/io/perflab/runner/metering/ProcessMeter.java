package io.perflab.runner.metering;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Reads everything a measured window needs from this process in one go: the monotonic clock,
 * {@code getrusage(RUSAGE_SELF)}, the bytes allocated by all threads so far and the collectors' counters.
 *
 * <p>Each source is a function so that tests can drive the meter with known readings.
 */
public final class ProcessMeter {

    private final LongSupplier nanoClock;
    private final Supplier<ResourceUsage> usage;
    private final LongSupplier allocatedBytes;
    private final Supplier<GcTotals> gc;

    public ProcessMeter(LongSupplier nanoClock, Supplier<ResourceUsage> usage, LongSupplier allocatedBytes,
                        Supplier<GcTotals> gc) {
        this.nanoClock = nanoClock;
        this.usage = usage;
        this.allocatedBytes = allocatedBytes;
        this.gc = gc;
    }

    /** The meter of this JVM: {@link System#nanoTime()}, {@code RUSAGE_SELF}, the platform MXBeans. */
    public static ProcessMeter forThisProcess() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        if (!threads.isThreadAllocatedMemorySupported()) {
            throw new UnsupportedOperationException("this JVM cannot report allocated bytes per thread");
        }
        threads.setThreadAllocatedMemoryEnabled(true);
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        return new ProcessMeter(System::nanoTime, ResourceUsage::self, threads::getTotalThreadAllocatedBytes,
                () -> GcTotals.of(collectors));
    }

    /**
     * A reading of every source. Allocation and GC are read before the clock and {@code getrusage}, so that
     * the MXBean calls themselves fall outside a window that starts with this snapshot, and inside the
     * previous one when the snapshot ends a window; either way, they are charged once.
     */
    public Snapshot snapshot() {
        long allocated = allocatedBytes.getAsLong();
        GcTotals collections = gc.get();
        ResourceUsage resources = usage.get();
        long now = nanoClock.getAsLong();
        return new Snapshot(now, resources, allocated, collections);
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

    /** One reading of the meter's sources. */
    public record Snapshot(long nanoTime, ResourceUsage usage, long allocatedBytes, GcTotals gc) {

        /** What happened between {@code start} and this snapshot. */
        public Window since(Snapshot start) {
            return new Window(nanoTime - start.nanoTime, usage.minus(start.usage),
                    allocatedBytes - start.allocatedBytes, gc.collections() - start.gc.collections(),
                    gc.millis() - start.gc.millis());
        }
    }

    /**
     * The deltas over a measured window.
     *
     * @param elapsedNanos monotonic wall time of the window
     * @param usage {@code getrusage(RUSAGE_SELF)} difference: the whole process, client and server threads
     * @param allocatedBytes bytes allocated by all threads, live or dead
     * @param gcCount collections of all collectors
     * @param gcMillis accumulated collection time reported by the collectors
     */
    public record Window(long elapsedNanos, ResourceUsage usage, long allocatedBytes, long gcCount,
                         long gcMillis) {
    }
}
