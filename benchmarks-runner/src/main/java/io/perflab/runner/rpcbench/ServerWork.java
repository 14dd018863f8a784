package io.perflab.runner.rpcbench;

import io.perflab.runner.metering.HostProbe;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
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
 *
 * <p>The calibration is only the start: how fast the JIT's code for the spin runs depends on where it was compiled
 * (inlined into the calibration loop, into the handler, or alone; a tier still being replaced), by up to 1.4–2× in
 * one JVM. So one call in {@value #CHECK_EVERY}, drawn at random, times itself on the thread CPU clock, then reads the
 * clock once more to measure what a reading costs right then. The clock is a system call on the guests measured
 * (1–2.5 µs a reading, more than the 0.8–1.8 µs injected), its cost varies from call to call, and an interrupt that
 * lands in the spin is charged to it (tens of µs, now and then), so no single timed call says what its spin cost.
 * Every {@value #CORRECT_EVERY} timed calls the iterations per call are set from the median, over the last {@value
 * #REMEMBERED}, of a timed call's clock time less its clock reading's own, per iteration: the clock's noise is as
 * likely up as down, the interrupts are rare, and the median passes over both (docs/PERFORMANCE.md, "The injected
 * cost was not what was asked"). A timed call's three clock reads are part of the injected cost too (0.1 µs a call
 * at 2.2 µs a reading), so the spin is the cost asked for less that share: a call costs {@code serverWorkNanos} on
 * average, instrument included.
 *
 * <p>The JVM keeps its last {@value #KEPT} timed calls' figures, so that each window records what its own measured
 * ({@link #timedSince}): the median spin and clock reading, and from them the cost per call
 * ({@code server_work_measured_nanos}). The injected cost is shown, window by window, to be the one asked for, not
 * assumed.
 *
 * <p>Over 300 lines: the spin, its calibration, the timed calls that correct it and the record of them the windows
 * read are one instrument.
 */
public final class ServerWork implements Runnable {

    /** No work: the handler answers at once. */
    public static final ServerWork NONE = new ServerWork(0, 0, null);

    static final int ROUNDS = 7;
    /** One call in this many, on average, times itself. */
    static final int CHECK_EVERY = 64;
    /** The iterations per call are set again after this many more timed calls. */
    static final int CORRECT_EVERY = 32;
    /** The timed calls whose median sets the iterations per call. */
    static final int REMEMBERED = 128;
    /** The JVM's last timed calls kept for the windows' medians. */
    static final int KEPT = 8192;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static final int ROUND_MILLIS = 10;
    private static final int WARMUP_CALLS = 20_000;
    private static final int WARMUP_ITERATIONS = 1_000;

    private static Calibration calibration;
    /** The CPU time of the spins of the JVM's last {@link #KEPT} timed calls, ns; guarded by the class. */
    private static final long[] KEPT_NANOS = new long[KEPT];
    /** What a clock reading cost in each of those calls, ns; guarded by the class. */
    private static final long[] KEPT_CLOCK_NANOS = new long[KEPT];
    /** Calls that timed themselves in this JVM so far; guarded by the class. */
    private static long timedSoFar;

    private final long nanosPerCall;
    /** Iterations per call, corrected as calls time themselves; written by any thread that calls. */
    private volatile long iterations;
    /**
     * The last {@link #REMEMBERED} timed calls' CPU time per iteration and clock reading's cost, ns, and their count;
     * guarded by this.
     */
    private final double[] perIteration = new double[REMEMBERED];
    private final double[] clockReading = new double[REMEMBERED];
    private long timedCalls;
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
            Calibration spun = calibrate(THREADS::getCurrentThreadCpuTime);
            calibration = new Calibration(spun.nanosPerIteration(), spun.spread(),
                    clockCost(THREADS::getCurrentThreadCpuTime));
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
        return new Calibration(median, (rounds[ROUNDS - 1] - rounds[0]) / median, 0);
    }

    /** The median of 101 differences of two back-to-back readings of {@code threadCpuNanos}: one reading's cost. */
    static long clockCost(LongSupplier threadCpuNanos) {
        long[] costs = new long[101];
        for (int i = 0; i < costs.length; i++) {
            long first = threadCpuNanos.getAsLong();
            costs[i] = threadCpuNanos.getAsLong() - first;
        }
        Arrays.sort(costs);
        return Math.max(0, costs[costs.length / 2]);
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
        long n = iterations;
        if (n <= 0) {
            return;
        }
        // a thread-local draw, not a shared counter: server threads on other CPUs would bounce its cache line per call
        if (ThreadLocalRandom.current().nextInt(CHECK_EVERY) != 0) {
            sink = spin(n, sink);
            return;
        }
        long before = THREADS.getCurrentThreadCpuTime();
        sink = spin(n, sink);
        long after = THREADS.getCurrentThreadCpuTime();
        timed(n, after - before, THREADS.getCurrentThreadCpuTime() - after);
    }

    /**
     * Takes in a call that spun {@code n} iterations in {@code nanos} of clock time, when one clock reading cost
     * {@code clockNanos}; every {@value #CORRECT_EVERY} such calls sets the iterations per call from the median per
     * iteration of the last {@value #REMEMBERED}. One call's {@code nanos - clockNanos} may be anything, even below
     * zero.
     */
    synchronized void timed(long n, long nanos, long clockNanos) {
        long spun = nanos - clockNanos;
        keep(spun, clockNanos);
        int slot = (int) (timedCalls % REMEMBERED);
        perIteration[slot] = spun / (double) n;
        clockReading[slot] = clockNanos;
        timedCalls++;
        if (timedCalls >= REMEMBERED && timedCalls % CORRECT_EVERY == 0) {
            double median = median(perIteration.clone());
            double spin = nanosPerCall - instrumentPerCall(median(clockReading.clone()));
            if (median > 0) {
                iterations = Math.max(1, Math.round(Math.max(0, spin) / median));
            }
        }
    }

    /** What a timed call's three clock readings add to each call on average, ns, at {@code clockNanos} a reading. */
    static double instrumentPerCall(double clockNanos) {
        return 3 * clockNanos / CHECK_EVERY;
    }

    private static synchronized void keep(long spun, long clockNanos) {
        KEPT_NANOS[(int) (timedSoFar % KEPT)] = spun;
        KEPT_CLOCK_NANOS[(int) (timedSoFar % KEPT)] = clockNanos;
        timedSoFar++;
    }

    /** Calls that timed themselves in this JVM so far, over every server's work: a mark for {@link #timedSince}. */
    public static synchronized long timedSoFar() {
        return timedSoFar;
    }

    /**
     * The calls timed since {@code mark} ({@link #timedSoFar()}), with the medians of their spins and clock readings.
     */
    public static synchronized Timing timedSince(long mark) {
        long calls = timedSoFar - mark;
        int n = (int) Math.min(calls, KEPT);
        if (n <= 0) {
            return Timing.NONE;
        }
        double[] spun = new double[n];
        double[] clock = new double[n];
        for (int i = 0; i < n; i++) {
            int slot = (int) ((timedSoFar - n + i) % KEPT);
            spun[i] = KEPT_NANOS[slot];
            clock[i] = KEPT_CLOCK_NANOS[slot];
        }
        return new Timing(calls, median(spun), median(clock));
    }

    /** The median of {@code values}, which it sorts. */
    private static double median(double[] values) {
        Arrays.sort(values);
        return HostProbe.quantile(values, 0.5);
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
                ROUND_MILLIS, 100 * calibrated.spread()) + String.format(Locale.ROOT, "; a clock reading %d ns; "
                + "one call in %d times itself, and the iterations follow the median per iteration of the last %d "
                + "timed calls", calibrated.clockNanos(), CHECK_EVERY, REMEMBERED));
        return d;
    }

    /**
     * The calls that timed themselves in some span ({@link #timedSince}) and what they measured (of the last
     * {@value #KEPT} of them; NaN when no call timed itself).
     *
     * @param calls calls that timed themselves
     * @param medianNanos the median CPU time of their spins, ns: a call's clock time less a clock reading's own cost,
     *     measured in the same call
     * @param medianClockNanos the median cost of a clock reading, ns
     */
    public record Timing(long calls, double medianNanos, double medianClockNanos) {

        /** Nothing timed. */
        public static final Timing NONE = new Timing(0, Double.NaN, Double.NaN);

        /** The injected cost per call: the median spin and, spread over the calls, the timed calls' clock readings. */
        public double perCallNanos() {
            return medianNanos + instrumentPerCall(medianClockNanos);
        }
    }

    /**
     * The spin's speed in this JVM.
     *
     * @param nanosPerIteration CPU time of one iteration, the median of the rounds
     * @param spread (max − min) / median of the rounds
     * @param clockNanos what one reading of the thread CPU clock cost at calibration (the median of 101), shown with
     *     it; the calls that time themselves measure it again each time
     */
    record Calibration(double nanosPerIteration, double spread, long clockNanos) {
    }
}
