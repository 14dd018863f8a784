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
 * How fast the host runs a fixed piece of work right now: one thread per CPU, each pinned to its CPU where the
 * kernel allows it, every {@value #PERIOD_MILLIS} ms times on its own thread CPU clock {@value #LOOP_STEPS} steps of
 * a fixed user-space loop (a multiply-add and a store into a 32 KiB table, the kind of work the engine's calls do
 * between system calls), and {@value #CALLS} cheap system calls ({@code lseek} on {@code /dev/null}); it keeps both
 * with when they were taken. A window's figure, the host's speed, is the {@link #QUANTILE 25th percentile} of the
 * loop's CPU time per 1,000 steps over the samples taken inside it ({@link #speedNanos}); the tenth percentile of
 * the system call's is recorded beside it ({@link #syscallNanos}).
 *
 * <p>Why. On a virtual machine the hypervisor runs other guests' work on the cores behind our vCPUs; time a vCPU
 * loses to that is not reported as steal on every host, and whatever thread the guest was running is charged for
 * it. (A thread that only reads the clock in a loop, on a Firecracker guest that reports no steal, saw 6–9 % of its
 * wall time in gaps of 10 µs and more, about 1,400 a second against about 250 guest interrupts, and was charged
 * 98–99.9 % of the wall time as CPU.) Caches and memory bandwidth are shared with those guests too. The same JVM, same
 * code, same vCPU then measures 25 µs of CPU per call in one window and 45 µs in the next, and that drift, not the
 * code, is most of what separates two windows of an experiment. A thread that does the same fixed work over and
 * over slows down in step (docs/PERFORMANCE.md, "The host's speed as a covariate").
 *
 * <p>Why the loop and its 25th percentile. A sample is also slowed by what the benchmark beside it does: an
 * interrupt handled inside it, cache lines the benchmark's threads evicted. That part belongs to the guest's own
 * load, not to the host, and it would make the probe depend on the change under test; the quicker samples are the
 * ones nothing in the guest disturbed. Two runs recorded 24 statistics of three probes in every window (an A/A of
 * 32 windows and a known effect of 60, 12-02; docs/PERFORMANCE.md, "Which figure of the probe"): divided by the
 * loop's 25th percentile, the spread of the pairs' means of CPU per call was 2.23 % and 4.04 %, by the system
 * call's tenth percentile (the figure until then) 3.52 % and 5.22 %, by nothing 7.05 % and 7.49 %. On another
 * guest, in an A/A of 60 pairs recording both (12-02 afternoon), the two tied: 3.78 % and 3.77 % against 4.48 %.
 * The system call's figure stays recorded so that the two can be compared again on every run.
 *
 * <p>The probe runs in the runner's process, not in the trial JVMs, so it adds nothing to what a trial meters, and
 * both variants of a pair see the same probe. Its own CPU time, by its own readings on a guest where the loop
 * took 1.8 µs per 1,000 steps and the system call 1.4 µs (the windows' medians of the figures above), is about
 * 36 µs for the loop and 70 µs or more for the system calls every 10 ms on each CPU (about 1 %), the same for both
 * variants; its effect on the trials' figures has not been measured side by side (the A/A of the default design,
 * docs/PERFORMANCE.md, ran with it).
 */
public final class HostProbe implements AutoCloseable {

    /** System calls timed per sample. */
    static final int CALLS = 50;
    /** Steps of the loop timed per sample. */
    static final int LOOP_STEPS = 20_000;
    /** From one sample to the next on each CPU. */
    static final long PERIOD_MILLIS = 10;
    /** Samples kept per CPU: ten minutes at one per period, more than the longest window. */
    static final int CAPACITY = 60_000;
    /** The quantile of a window's loop samples that is its figure, the host's speed. */
    static final double QUANTILE = 0.25;
    /** The quantile of a window's system-call samples that is recorded beside it. */
    static final double SYSCALL_QUANTILE = 0.10;
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
     * The host's speed in a window: the {@link #QUANTILE 25th percentile} of the loop's CPU time per 1,000 steps,
     * in nanoseconds, over the samples taken on {@code cpus} (null: every CPU probed) between {@code fromNanos} and
     * {@code toNanos} on the monotonic clock; NaN when fewer than {@link #MIN_SAMPLES} were taken there.
     */
    public double speedNanos(long fromNanos, long toNanos, Collection<Integer> cpus) {
        return figure(fromNanos, toNanos, cpus, true, QUANTILE);
    }

    /**
     * The {@link #SYSCALL_QUANTILE tenth percentile} of the CPU time of one probe system call in a window, ns, as
     * {@link #speedNanos} takes the loop's.
     */
    public double syscallNanos(long fromNanos, long toNanos, Collection<Integer> cpus) {
        return figure(fromNanos, toNanos, cpus, false, SYSCALL_QUANTILE);
    }

    private double figure(long fromNanos, long toNanos, Collection<Integer> cpus, boolean loop, double p) {
        List<Double> values = new ArrayList<>();
        for (Sampler sampler : samplers) {
            if (cpus == null || cpus.contains(sampler.cpu)) {
                sampler.collect(fromNanos, toNanos, loop, values);
            }
        }
        if (values.size() < MIN_SAMPLES) {
            return Double.NaN;
        }
        return quantile(values.stream().mapToDouble(Double::doubleValue).sorted().toArray(), p);
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

    /** One CPU's sampling thread and its ring of (when, loop nanoseconds per 1,000 steps, nanoseconds per call). */
    private static final class Sampler implements Runnable {
        private final int cpu;
        private final long[] when = new long[CAPACITY];
        private final double[] perThousandSteps = new double[CAPACITY];
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
                long[] table = new long[4096];
                long x = 0x9E3779B97F4A7C15L;
                while (!stop) {
                    long at = System.nanoTime();
                    long before = threads.getCurrentThreadCpuTime();
                    for (int i = 0; i < LOOP_STEPS; i++) {
                        x = x * 6364136223846793005L + 1442695040888963407L;
                        table[(int) (x >>> 52)] += x;
                    }
                    long between = threads.getCurrentThreadCpuTime();
                    for (int i = 0; i < CALLS; i++) {
                        sink += devNull.getFilePointer();
                    }
                    long after = threads.getCurrentThreadCpuTime();
                    sink += table[(int) (x >>> 60)];
                    synchronized (this) {
                        int slot = (int) (count++ % CAPACITY);
                        when[slot] = at;
                        perThousandSteps[slot] = (between - before) * 1000.0 / LOOP_STEPS;
                        perCall[slot] = (double) (after - between) / CALLS;
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(PERIOD_MILLIS));
                }
                position = sink;
            } catch (IOException e) {
                throw new IllegalStateException("the host probe could not use /dev/null: " + e.getMessage(), e);
            }
        }

        synchronized void collect(long fromNanos, long toNanos, boolean loop, List<Double> into) {
            long first = Math.max(0, count - CAPACITY);
            for (long i = first; i < count; i++) {
                int slot = (int) (i % CAPACITY);
                if (when[slot] >= fromNanos && when[slot] < toNanos) {
                    into.add(loop ? perThousandSteps[slot] : perCall[slot]);
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
