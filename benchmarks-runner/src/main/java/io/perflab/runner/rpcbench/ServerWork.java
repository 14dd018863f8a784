package io.perflab.runner.rpcbench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A known CPU cost per call: the server's handler spins in user space for {@code serverWorkNanos} of CPU time before
 * it answers (the workload's {@code serverWorkNanos}), so that an experiment can inject an effect of known size and
 * show whether the instrument measures it (issue 15, known-effect calibration).
 *
 * <p>The spin is a xorshift chain, which the JIT can neither fold nor vectorise, and it reads no clock: a clock read
 * per iteration would be a system call's worth of kernel time, not the user time it is meant to be. Instead it is
 * calibrated once per JVM against the thread's own CPU clock ({@code CLOCK_THREAD_CPUTIME_ID}, exact and blind to
 * preemption): first spun until the JIT has compiled it, then timed in {@value #ROUNDS} rounds of about
 * {@value #ROUND_MILLIS} ms, whose median gives the nanoseconds per iteration. The calibration is recorded in the
 * trial's environment ({@link #describe()}).
 */
public final class ServerWork implements Runnable {

    /** No work: the handler answers at once. */
    public static final ServerWork NONE = new ServerWork(0, 0, null);

    static final int ROUNDS = 7;
    static final int ROUND_MILLIS = 10;
    private static final int WARMUP_CALLS = 20_000;
    private static final int WARMUP_ITERATIONS = 1_000;

    private static Calibration calibration;

    private final long nanosPerCall;
    private final long iterations;
    private final Calibration calibrated;
    /** Where each spin's result goes, so that the JIT cannot drop the spin; races between threads are harmless. */
    private long sink = 1;

    private ServerWork(long nanosPerCall, long iterations, Calibration calibrated) {
        this.nanosPerCall = nanosPerCall;
        this.iterations = iterations;
        this.calibrated = calibrated;
    }

    /**
     * The work of {@code nanosPerCall} ns of CPU per call, calibrated on first use in this JVM; {@link #NONE} for 0.
     *
     * @throws IllegalArgumentException for a negative cost
     */
    public static ServerWork of(long nanosPerCall) {
        if (nanosPerCall < 0) {
            throw new IllegalArgumentException("serverWorkNanos must be ≥ 0, got " + nanosPerCall);
        }
        if (nanosPerCall == 0) {
            return NONE;
        }
        Calibration c = calibration();
        return new ServerWork(nanosPerCall, Math.max(1, Math.round(nanosPerCall / c.nanosPerIteration())), c);
    }

    private static synchronized Calibration calibration() {
        if (calibration == null) {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            calibration = calibrate(threads::getCurrentThreadCpuTime);
        }
        return calibration;
    }

    /** Spins until the JIT has compiled the spin, then times {@value #ROUNDS} rounds on {@code threadCpuNanos}. */
    static Calibration calibrate(LongSupplier threadCpuNanos) {
        long x = 1;
        for (int i = 0; i < WARMUP_CALLS; i++) {
            x = spin(WARMUP_ITERATIONS, x);
        }
        long probe = 1_000_000;
        long start = threadCpuNanos.getAsLong();
        x = spin(probe, x);
        double guess = Math.max(0.01, (threadCpuNanos.getAsLong() - start) / (double) probe);
        long perRound = Math.max(1, Math.round(ROUND_MILLIS * 1e6 / guess));
        double[] rounds = new double[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            long before = threadCpuNanos.getAsLong();
            x = spin(perRound, x);
            rounds[r] = (threadCpuNanos.getAsLong() - before) / (double) perRound;
        }
        Arrays.sort(rounds);
        double median = rounds[ROUNDS / 2];
        if (!(median > 0)) {
            throw new IllegalStateException("the thread CPU clock did not advance while spinning; cannot calibrate "
                    + "serverWorkNanos (result " + x + ")");
        }
        return new Calibration(median, (rounds[ROUNDS - 1] - rounds[0]) / median);
    }

    /** {@code iterations} steps of a xorshift64 chain from {@code seed}. */
    static long spin(long iterations, long seed) {
        long x = seed == 0 ? 1 : seed;
        for (long i = 0; i < iterations; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    @Override
    public void run() {
        if (iterations > 0) {
            sink = spin(iterations, sink);
        }
    }

    /** The CPU time each call costs, ns. */
    public long nanosPerCall() {
        return nanosPerCall;
    }

    /** Spin iterations per call. */
    long iterations() {
        return iterations;
    }

    /**
     * Environment entries: the cost per call, the iterations that make it and the calibration they come from;
     * nothing when there is no work.
     */
    public Map<String, String> describe() {
        Map<String, String> d = new LinkedHashMap<>();
        if (calibrated == null) {
            return d;
        }
        d.put("server_work_nanos", Long.toString(nanosPerCall));
        d.put("server_work_iterations", Long.toString(iterations));
        d.put("server_work_calibration", String.format(Locale.ROOT, "%.4f ns per iteration, median of %d rounds of "
                + "%d ms on the thread CPU clock, spread %.1f %%", calibrated.nanosPerIteration(), ROUNDS,
                ROUND_MILLIS, 100 * calibrated.spread()));
        return d;
    }

    /**
     * The spin's speed in this JVM.
     *
     * @param nanosPerIteration CPU time of one iteration, the median of the rounds
     * @param spread (max − min) / median of the rounds
     */
    record Calibration(double nanosPerIteration, double spread) {
    }
}
