package io.perflab.runner.metering;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How fast the host runs a fixed piece of kernel work right now: one thread per CPU, each pinned to its CPU where
 * the kernel allows it, times {@value #CALLS} cheap system calls ({@code lseek} on {@code /dev/null}) on its own
 * thread CPU clock every {@value #PERIOD_MILLIS} ms, and keeps the time per call with when it was taken. A window's
 * figure is the tenth percentile of the samples taken inside it ({@link #speedNanos}).
 *
 * <p>Why. On a virtual machine the hypervisor runs other guests' work on the cores behind our vCPUs; time a vCPU
 * loses to that is not reported as steal on every host, and whatever thread the guest was running is charged for
 * it. The same JVM, same code, same vCPU then measures 25 µs of CPU per call in one window and 45 µs in the next,
 * and that drift, not the code, is most of what separates two windows of an experiment. A thread that spends the
 * same few microseconds in the kernel over and over slows down in step (in 22 windows of 3 s of one rpc-bench JVM
 * the probe followed CPU per call with a correlation of 0.93; docs/PERFORMANCE.md, "The host's speed as a
 * covariate").
 *
 * <p>Why the tenth percentile and not the median. A sample is also slowed by what the benchmark beside it does: an
 * interrupt handled inside its 15 µs, cache lines the benchmark's threads evicted. That part belongs to the guest's
 * own load, not to the host, and it would make the probe depend on the change under test. The quickest tenth of the
 * samples are the ones nothing in the guest disturbed. In an A/A of alternating pairs (32 windows, 12-02) the
 * log-ratio of CPU per call between the two JVMs of a window spread by 11.3 %; divided by the median probe by
 * 9.1 % (fitted slope 1.8: the median moved too little), by the tenth percentile by 7.1 % (slope 0.91, near the 1 a
 * plain ratio assumes). In a second run, with a change, the two tied per window and the tenth percentile spread less
 * on the pairs' means (5.2 % against 5.8 %). It does not make the probe blind to the guest: in one known-effect
 * campaign the probe read 1.8 % faster in the windows of the variant that made fewer system calls per second, in
 * another it did not move (docs/PERFORMANCE.md, "The known effect at the default size").
 *
 * <p>The probe runs in the runner's process, not in the trial JVMs, so it adds nothing to what a trial meters, and
 * both variants of a pair see the same probe. Its own CPU time, by its own readings, is about 20 µs every 10 ms
 * on each CPU (0.2 %); its effect on the trials' figures has not been measured side by side (the A/A of the
 * default design, docs/PERFORMANCE.md, ran with it).
 */
public final class HostProbe implements AutoCloseable {

    /** System calls timed per sample. */
    static final int CALLS = 50;
    /** From one sample to the next on each CPU. */
    static final long PERIOD_MILLIS = 10;
    /** Samples kept per CPU: ten minutes at one per period, more than the longest window. */
    static final int CAPACITY = 60_000;
    /** The quantile of a window's samples that is its figure. */
    static final double QUANTILE = 0.10;
    /** The fewest samples a window's figure is given from. */
    static final int MIN_SAMPLES = 10;

    private final List<Sampler> samplers = new ArrayList<>();

    private HostProbe() {
    }

    /**
     * Starts sampling on each of {@code cpus} (a thread pinned to it where {@code sched_setaffinity} allows, else
     * left where the scheduler puts it). A sampler that cannot open {@code /dev/null} stops at once: its CPU then
     * has no samples, and windows without enough of them get no host-scaled metrics.
     */
    public static HostProbe start(Collection<Integer> cpus) {
        HostProbe probe = new HostProbe();
        for (int cpu : cpus) {
            Sampler sampler = new Sampler(cpu);
            probe.samplers.add(sampler);
            Thread thread = new Thread(sampler, "perflab-host-probe-" + cpu);
            thread.setDaemon(true);
            sampler.thread = thread;
            thread.start();
        }
        return probe;
    }

    /**
     * The host's speed in a window: the {@link #QUANTILE tenth percentile} of the CPU time of one probe call, in
     * nanoseconds, over the samples taken on {@code cpus} (null: every CPU probed) between {@code fromNanos} and
     * {@code toNanos} on the monotonic clock; NaN when fewer than {@link #MIN_SAMPLES} were taken there.
     */
    public double speedNanos(long fromNanos, long toNanos, Collection<Integer> cpus) {
        List<Double> values = new ArrayList<>();
        for (Sampler sampler : samplers) {
            if (cpus == null || cpus.contains(sampler.cpu)) {
                sampler.collect(fromNanos, toNanos, values);
            }
        }
        if (values.size() < MIN_SAMPLES) {
            return Double.NaN;
        }
        return quantile(values.stream().mapToDouble(Double::doubleValue).sorted().toArray(), QUANTILE);
    }

    /**
     * The {@code p} quantile of {@code sorted} (ascending, not empty), interpolated between the two nearest order
     * statistics as R's default {@code quantile(x, p)} (type 7).
     */
    public static double quantile(double[] sorted, double p) {
        double h = (sorted.length - 1) * p;
        int below = (int) Math.floor(h);
        if (below + 1 >= sorted.length) {
            return sorted[sorted.length - 1];
        }
        return sorted[below] + (h - below) * (sorted[below + 1] - sorted[below]);
    }

    /** Whether each sampler's thread runs on the CPU it was given. */
    public boolean pinned() {
        return samplers.stream().allMatch(s -> s.pinned);
    }

    @Override
    public void close() {
        for (Sampler sampler : samplers) {
            sampler.stop = true;
            LockSupport.unpark(sampler.thread);
        }
        for (Sampler sampler : samplers) {
            try {
                sampler.thread.join(TimeUnit.SECONDS.toMillis(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** One CPU's sampling thread and its ring of (when, nanoseconds per call). */
    private static final class Sampler implements Runnable {
        private final int cpu;
        private final long[] when = new long[CAPACITY];
        private final double[] perCall = new double[CAPACITY];
        private long count;
        private volatile boolean stop;
        private volatile boolean pinned;
        /** What the calls returned, kept so that they are not work for nothing. */
        private volatile long position;
        private Thread thread;

        Sampler(int cpu) {
            this.cpu = cpu;
        }

        @Override
        public void run() {
            pinned = Affinity.pinCurrentThread(cpu);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            try (RandomAccessFile devNull = new RandomAccessFile("/dev/null", "r")) {
                long sink = 0;
                while (!stop) {
                    long at = System.nanoTime();
                    long before = threads.getCurrentThreadCpuTime();
                    for (int i = 0; i < CALLS; i++) {
                        sink += devNull.getFilePointer();
                    }
                    long spent = threads.getCurrentThreadCpuTime() - before;
                    synchronized (this) {
                        int slot = (int) (count++ % CAPACITY);
                        when[slot] = at;
                        perCall[slot] = (double) spent / CALLS;
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(PERIOD_MILLIS));
                }
                position = sink;
            } catch (IOException e) {
                throw new IllegalStateException("the host probe could not use /dev/null: " + e.getMessage(), e);
            }
        }

        synchronized void collect(long fromNanos, long toNanos, List<Double> into) {
            long first = Math.max(0, count - CAPACITY);
            for (long i = first; i < count; i++) {
                int slot = (int) (i % CAPACITY);
                if (when[slot] >= fromNanos && when[slot] < toNanos) {
                    into.add(perCall[slot]);
                }
            }
        }

        @Override
        public String toString() {
            return "cpu " + cpu + ", " + count + " samples" + (pinned ? "" : ", unpinned");
        }
    }

    /** {@code sched_setaffinity(2)} of the calling thread, through JNA. */
    static final class Affinity {

        private interface CLibrary extends Library {
            int sched_setaffinity(int pid, long size, long[] mask);
        }

        private static final class Holder {
            static final CLibrary C = Platform.isLinux() ? Native.load(Platform.C_LIBRARY_NAME, CLibrary.class)
                    : null;
        }

        private Affinity() {
        }

        /** Pins the calling thread to {@code cpu}; false where the kernel refused or this is not Linux. */
        static boolean pinCurrentThread(int cpu) {
            if (cpu < 0 || cpu >= 1024) {
                return false;
            }
            try {
                if (Holder.C == null) {
                    return false;
                }
                long[] mask = new long[16];
                mask[cpu / 64] = 1L << (cpu % 64);
                return Holder.C.sched_setaffinity(0, mask.length * 8L, mask) == 0;
            } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
                return false;
            }
        }
    }

    @Override
    public String toString() {
        return "HostProbe" + samplers;
    }
}
