package io.perflab.runner.rpcbench;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.metering.HostCpu;
import io.perflab.runner.metering.KernelMeter;
import io.perflab.runner.metering.KernelWindow;
import io.perflab.runner.metering.ProcessMeter;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * Kudu's rpc-bench on PerfLab's engine: a server and its clients in this JVM on loopback, calling
 * {@code Calculator.Add} (or {@code Calculator.Echo} with payloads) as fast as they can. The workload's
 * {@linkplain Stack stack} may put gRPC-java or bare Netty in the engine's place, under the same load and the
 * same metering ({@link Load}).
 *
 * <p>Sync mode: {@code clientThreads} threads, each with its own client (one reactor, one connection) and one
 * outstanding call. Async mode: {@code clientThreads} clients (one reactor each) carrying
 * {@code asyncConcurrency} call chains; each completion issues the chain's next call from the client's event
 * loop.
 *
 * <p>Unlike rpc-bench, setup and warmup lie outside the measured window: the window starts after the warmup
 * with a {@link ProcessMeter} snapshot and ends with another, and the figures are their deltas; a
 * {@link KernelMeter} session around the window splits its CPU time by samples and counts its system calls.
 * Each client thread (sync) or client event loop (async) records latencies in its own recorder, so measuring adds no
 * contention between threads.
 *
 * <p>Over 300 lines: setup, warmup, the measured window and teardown share the stacks' lifecycle and its failures.
 */
public final class RpcBench {

    /** How much longer a window may last when no call completed in it. */
    private static final long OVERTIME_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long OVERTIME_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** How long before a window's given start the measuring thread stops sleeping and spins. */
    private static final long SPIN_NANOS = 2_000_000;

    private final EngineOptions options;
    private final Workload workload;
    private final ProcessMeter meter;
    private final KernelMeter kernel;
    private final LongSupplier nanoClock;
    private final Consumer<String> progress;

    /**
     * @param options the engine options (the workload's {@code encryption} switches {@code tls} on); used by the
     *     {@code perflab} stack only
     * @param workload what to run
     * @param meter the meter of the measured window
     * @param nanoClock the monotonic clock that paces warmup and window
     * @param progress told about phase changes, never during the measured window
     * @throws IllegalArgumentException when this JVM's {@link KernelMeter} system properties are not allowed
     */
    public RpcBench(EngineOptions options, Workload workload, ProcessMeter meter, LongSupplier nanoClock,
                    Consumer<String> progress) {
        this(options, workload, meter, KernelMeter.fromSystemProperties(), nanoClock, progress);
    }

    /**
     * As {@link #RpcBench(EngineOptions, Workload, ProcessMeter, LongSupplier, Consumer)}, with the kernel meter of
     * the measured window given.
     */
    public RpcBench(EngineOptions options, Workload workload, ProcessMeter meter, KernelMeter kernel,
                    LongSupplier nanoClock, Consumer<String> progress) {
        this.options = workload.encryption() ? options.withOption(EngineOptions.TLS, "true") : options;
        this.workload = Objects.requireNonNull(workload, "workload");
        this.meter = Objects.requireNonNull(meter, "meter");
        this.kernel = Objects.requireNonNull(kernel, "kernel");
        this.nanoClock = nanoClock;
        this.progress = progress;
    }

    /** A bench of this process with the system clock that reports nothing. */
    public static RpcBench of(EngineOptions options, Workload workload) {
        return new RpcBench(options, workload, ProcessMeter.forThisProcess(), System::nanoTime, line -> {
        });
    }

    /** Starts server and clients, warms up, measures the window, shuts everything down. */
    public RpcBenchResult run() {
        return run(1).get(0);
    }

    /**
     * Starts server and clients, warms up once, then measures {@code windows} windows back to back, each of the
     * workload's run length, and shuts everything down. Their spread is the noise of one JVM, which the spread
     * of trials in fresh JVMs exceeds by what each JVM's start decides (JIT, memory layout, thread placement).
     *
     * @throws IllegalArgumentException if {@code windows} &lt; 1
     */
    public List<RpcBenchResult> run(int windows) {
        if (windows < 1) {
            throw new IllegalArgumentException("--windows must be ≥ 1, got " + windows);
        }
        try (Session session = open()) {
            session.warmUp();
            List<RpcBenchResult> results = new ArrayList<>();
            for (int i = 1; i <= windows; i++) {
                progress.accept("measuring for " + Seconds.format(workload.run()) + " s"
                        + (windows == 1 ? "" : " (window " + i + " of " + windows + ")"));
                results.add(session.measure(nanoClock.getAsLong(), OptionalLong.empty()).result());
            }
            return results;
        }
    }

    /**
     * Starts server and clients and hands over the running load: a trial of a paired design, whose windows the
     * runner times over the trial protocol, warms up with {@link Session#warmUp()} and measures with
     * {@link Session#measure(long, long)}. Closing the session shuts everything down.
     */
    public Session open() {
        Load load = workload.stack().open(options, workload);
        try {
            load.start();
            return new Session(load);
        } catch (RuntimeException e) {
            load.close();
            throw e;
        }
    }

    /** A running load: warmed up once, then measured window by window, paused and resumed between them. */
    public final class Session implements AutoCloseable {

        private final Load load;
        private Duration warmupUsed = Duration.ZERO;
        private WarmupOutcome warmup = new WarmupOutcome(false, "no warmup yet", Map.of(), 0, 0);
        private KernelMeter.Session prepared;

        private Session(Load load) {
            this.load = load;
        }

        /**
         * Warms up as the workload says ({@link SteadyWarmup}) and collects the garbage it left; returns the
         * entries the trial's environment gets, as its windows' results have them ({@link RpcBenchResult}): how long
         * the warmup's steps ran ({@code warmup_seconds}, from its first step to its end, the pause after its last
         * step included) and what it took before them ({@code warmup_setup_seconds}), whether an auto warmup
         * settled ({@code warmup_settled}; a fixed one has no such entry) and its evidence.
         */
        public Map<String, String> warmUp() {
            progress.accept("warming up (" + workload.warmup() + " s)");
            warmup = new SteadyWarmup(workload, meter, nanoClock, RpcBench.this::jitWork).run(load);
            warmupUsed = Duration.ofNanos(nanoClock.getAsLong() - warmup.stepsStartNanos());
            System.gc();
            Map<String, String> entries = new LinkedHashMap<>();
            entries.put("warmup_seconds", RpcBenchResult.seconds(warmupUsed));
            if (workload.warmup().auto()) {
                entries.put("warmup_settled", Boolean.toString(warmup.settled()));
            }
            entries.putAll(warmup.setup());
            return entries;
        }

        /**
         * Measures one window from {@code startAt} to {@code endAt} on the bench's monotonic clock
         * ({@link System#nanoTime()} in a trial, which is {@code CLOCK_MONOTONIC} and so the same in every process
         * of the host): it waits for {@code startAt} (or starts at once if that has passed) and ends at
         * {@code endAt}, so that two trials told the same times measure the same moments. A paused load resumes
         * first. The young generation is collected after the window rather than before it: a collection between
         * the given start and the window would first have to stop every load thread, which on a busy CPU took a
         * quarter of a second, and the two trials of a duet would start that far apart.
         */
        public Measured measure(long startAt, long endAt) {
            load.resume();
            KernelMeter.Session kernelSession = prepared;
            prepared = null;
            Measured measured = RpcBench.this.measure(load, warmupUsed, warmup, false, kernelSession, startAt,
                    OptionalLong.of(endAt));
            System.gc();
            return measured;
        }

        /**
         * Opens the kernel meter of the next window now, which can take a second on a busy CPU (it opens counters
         * for every thread): the window told its start next then starts on time.
         */
        public void prepare() {
            if (prepared == null) {
                prepared = kernel.open();
            }
        }

        private Measured measure(long startAt, OptionalLong endAt) {
            return RpcBench.this.measure(load, warmupUsed, warmup, true, null, startAt, endAt);
        }

        /** Stops issuing calls until the next window; returns once the clients are idle. */
        public void pause() {
            load.pause();
        }

        @Override
        public void close() {
            if (prepared != null) {
                prepared.close();
            }
            load.close();
        }
    }

    /**
     * One measured window.
     *
     * @param startNanos the monotonic clock at the window's start snapshot
     * @param result what it measured
     */
    public record Measured(long startNanos, RpcBenchResult result) {
    }

    /**
     * One measured window of a warmed-up load, from {@code startAt} to {@code endAt}, or for the workload's run
     * length when no end is given.
     */
    private Measured measure(Load load, Duration warmupUsed, WarmupOutcome warmup, boolean collectFirst,
                             KernelMeter.Session prepared, long startAt, OptionalLong endAt) {
        if (collectFirst) {
            // a collection left over from the warmup would land in the window: start it with an empty young
            // generation instead, as JMH does between iterations
            System.gc();
        }
        long failedBefore = load.failed.get();
        Optional<HostCpu.Ticks> hostStart = HostCpu.read();
        ProcessMeter.Window window;
        KernelWindow kernelWindow;
        Histogram latency;
        long startNanos;
        long jitBefore;
        ServerWork.Timing serverWork;
        try (KernelMeter.Session kernelSession = prepared != null ? prepared : kernel.open()) {
            awaitOnCpu(nanoClock, startAt);
            jitBefore = jitMillis();
            ProcessMeter.Snapshot start = meter.snapshot();
            // the calls of the window are those that end after the start snapshot, as its CPU time is: a swap
            // before it would count the calls that complete while it reads (seconds, when it was the meter's
            // first use)
            load.swapLatencies();
            long workMark = ServerWork.timedSoFar();
            startNanos = start.nanoTime();
            kernelSession.windowStarts(startNanos);
            long end = endAt.orElse(startNanos + workload.run().toNanos());
            awaitUntil(end);
            window = meter.snapshot().since(start);
            latency = load.swapLatencies();
            if (latency.getTotalCount() == 0 && load.isRunning()) {
                // a starved machine, or threads waiting for their compilations (-Xbatch): no call came back in
                // the window, so it lasts until one does, at most OVERTIME longer (measured_seconds shows it);
                // a load that stopped itself (a client lost its connection) makes no call to wait for
                progress.accept("no call completed in the window yet: extending it");
                while (latency.getTotalCount() == 0 && nanoClock.getAsLong() - end < OVERTIME_NANOS) {
                    LockSupport.parkNanos(OVERTIME_POLL_NANOS);
                    latency.add(load.swapLatencies());
                }
                window = meter.snapshot().since(start);
            }
            kernelWindow = kernelSession.windowEnds(start.nanoTime() + window.elapsedNanos());
            serverWork = ServerWork.timedSince(workMark);
        }
        Optional<HostCpu.Ticks> hostEnd = HostCpu.read();
        long jitInWindow = jitMillis() - jitBefore;
        double othersPercent = hostStart.isPresent() && hostEnd.isPresent()
                ? hostEnd.get().othersPercentSince(hostStart.get(), window.processUsage().cpuMicros(),
                        window.elapsedNanos())
                : Double.NaN;
        long failed = load.failed.get() - failedBefore;
        return new Measured(startNanos, new RpcBenchResult(workload, options.describe(), latency.getTotalCount(),
                window, latency, warmupUsed, warmup.settled(), failed, load.firstError.get(), othersPercent,
                jitInWindow, kernelWindow, warmup.setup(), serverWork));
    }

    /**
     * The JIT's work so far in ms: its compiler threads' CPU where the meter reads them, else the JVM's total
     * compilation time.
     */
    private long jitWork() {
        long compilerCpuMicros = meter.compilerCpuMicros();
        return compilerCpuMicros > 0 ? compilerCpuMicros / 1000 : jitMillis();
    }

    /** Total JIT compilation time so far, or 0 where the JVM does not report it. */
    private static long jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    private void awaitUntil(long deadline) {
        awaitUntil(nanoClock, deadline);
    }

    /** Sleeps until {@code clock} reads {@code deadline}. */
    static void awaitUntil(LongSupplier clock, long deadline) {
        long remaining;
        while ((remaining = deadline - clock.getAsLong()) > 0) {
            LockSupport.parkNanos(remaining);
        }
    }

    /**
     * Waits for a window's start and is on a CPU when it comes: parks until {@value #SPIN_NANOS} ns before, then
     * spins. A thread woken at the instant would first queue behind the load's threads for its CPU, and two trials
     * told the same instant would start their windows that much apart; the spin's CPU time lies before the window.
     * The warmup waits the same way, so that the spin is compiled before the first window: with {@code -Xbatch} its
     * compilation would hold the thread (600 ms in a trial whose warmup had not settled).
     */
    static void awaitOnCpu(LongSupplier clock, long deadline) {
        awaitUntil(clock, deadline - SPIN_NANOS);
        while (deadline - clock.getAsLong() > 0) {
            Thread.onSpinWait();
        }
    }
}
