package io.perflab.runner.rpcbench;

import io.perflab.runner.metering.CpuSplit;
import io.perflab.runner.metering.CpuTimeAccounting;
import io.perflab.runner.metering.KernelWindow;
import io.perflab.runner.metering.ProcessMeter;
import io.perflab.runner.metering.ResourceUsage;
import io.perflab.runner.trial.MetricKeys;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * What one rpc-bench trial measured in its window.
 *
 * @param workload what ran
 * @param engineOptions the engine's options in full ({@code EngineOptions#describe()}); they apply to the
 *     {@code perflab} stack only
 * @param requests calls completed successfully in the measured window
 * @param window the meter's deltas over the window
 * @param latencyNanos client-side call latency of the window's calls, ns
 * @param warmupUsed how long the warmup's steps ran, from the first to the warmup's end ({@code warmup_seconds}): a
 *     fixed warmup's time and the reading and pause after its last step; what the warmup took before its first
 *     step, the load running meanwhile, is in {@code setup} ({@code warmup_setup_seconds})
 * @param warmupSettled for an auto warmup, whether throughput and CPU time per call settled before the cap; false
 *     for a fixed warmup, whose environment has no {@code warmup_settled}
 * @param failedCalls calls that ended with an error in the measured window
 * @param firstError the first such error, or null
 * @param othersCpuPercent share of the host's CPU capacity that other processes used during the window, in
 *     percent (NaN where unknown): a disturbed trial shows here
 * @param jitMillisInWindow JIT compilation time during the window, ms (the JVM's figure, wall time of the
 *     compilations): a warmup too short for the JIT shows here
 * @param kernel how the window's CPU time splits into user and system time, and its system calls
 * @param setup environment entries of what the trial did before its windows: {@code warmup_setup_seconds} (the
 *     meter's first reading and any server work's calibration, before the warmup's steps), {@code warmup_evidence},
 *     the last one-second steps of the warmup (calls per second and CPU time per call with their spread, and the
 *     JIT's work in the last step — what "settled" rests on), and the calibration of any injected server work
 *     ({@link ServerWork#describe()})
 * @param serverWork what the injected server work's calls that timed themselves measured in the window
 *     ({@link ServerWork#timedSince}); {@link ServerWork.Timing#NONE} without injected work
 */
public record RpcBenchResult(Workload workload, Map<String, String> engineOptions, long requests,
                             ProcessMeter.Window window, Histogram latencyNanos, Duration warmupUsed,
                             boolean warmupSettled, long failedCalls, String firstError,
                             double othersCpuPercent, long jitMillisInWindow, KernelWindow kernel,
                             Map<String, String> setup, ServerWork.Timing serverWork) {

    public RpcBenchResult {
        setup = Map.copyOf(setup);
        Objects.requireNonNull(serverWork, "serverWork");
    }

    /**
     * Environment key, with injected server work: the CPU time, ns, it cost per call in the window as the calls that
     * timed themselves measured it — their median spin, and their clock readings spread over all calls
     * ({@link ServerWork.Timing#perCallNanos()}) — to set beside the {@code serverWorkNanos} asked for; absent when
     * none did.
     */
    public static final String SERVER_WORK_MEASURED_NANOS = "server_work_measured_nanos";
    /** Environment key, with injected server work: the median spin of the window's timed calls, ns. */
    public static final String SERVER_WORK_SPIN_NANOS = "server_work_spin_nanos";
    /** Environment key, with injected server work: the median cost of one of their clock readings, ns. */
    public static final String SERVER_WORK_CLOCK_NANOS = "server_work_clock_nanos";
    /** Environment key, with injected server work: how many of the window's calls timed themselves. */
    public static final String SERVER_WORK_TIMED_CALLS = "server_work_timed_calls";

    /**
     * Environment key: the relative standard error, in percent, that sampling gives the window's user CPU: the
     * binomial error of the window's own {@code cpu-clock} samples under a sampled split, the kernel's tick
     * sampling ({@link CpuTimeAccounting}) under a tick split; absent where the split is exact or unknown.
     */
    public static final String USER_SAMPLING_ERROR = "user_cpu_sampling_error_percent";
    /** As {@link #USER_SAMPLING_ERROR}, for system CPU. */
    public static final String SYS_SAMPLING_ERROR = "sys_cpu_sampling_error_percent";
    /**
     * Environment key: where the user/system split comes from, {@code sampled} or {@code tick}
     * ({@link CpuSplit.Source}). Figures of different sources are not comparable.
     */
    public static final String CPU_SPLIT_SOURCE = "cpu_split_source";
    /** Environment key: why the split is {@code tick}. */
    public static final String CPU_SPLIT_REASON = "cpu_split_reason";
    /** Environment key: the {@code cpu-clock} samples of the measured threads in user or kernel mode. */
    public static final String CPU_SPLIT_SAMPLES = "cpu_split_samples";
    /** Environment key: of those, the samples in user mode. */
    public static final String CPU_SPLIT_USER_SAMPLES = "cpu_split_user_samples";
    /** Environment key: the sampling rate of each CPU, Hz. */
    public static final String CPU_SPLIT_RATE_HZ = "cpu_split_rate_hz";
    /** Environment key: samples of any thread the kernel dropped for want of buffer space (absent when none). */
    public static final String CPU_SPLIT_LOST_SAMPLES = "cpu_split_lost_samples";
    /**
     * Environment key: samples of this process's threads that ended before they could be named, left out of the
     * split as they may have been the JIT's compiler threads (absent when none).
     */
    public static final String CPU_SPLIT_UNNAMED_SAMPLES = "cpu_split_unnamed_samples";
    /** Environment key: those samples' share, in percent, of the window's samples of this process. */
    public static final String CPU_SPLIT_UNNAMED_PERCENT = "cpu_split_unnamed_percent";
    /** Environment key, under a sampled split: user CPU per request as {@code getrusage} splits it, µs. */
    public static final String TICK_USER_CPU_US_PER_REQ = "tick_user_cpu_us_per_req";
    /** As {@link #TICK_USER_CPU_US_PER_REQ}, for system CPU. */
    public static final String TICK_SYS_CPU_US_PER_REQ = "tick_sys_cpu_us_per_req";
    /** Environment key: why {@code syscalls_per_req} is missing. */
    public static final String SYSCALLS_NOT_COUNTED = "syscalls_not_counted";
    /** Environment key: why {@code instructions_per_req} and {@code cycles_per_req} are missing. */
    public static final String HARDWARE_NOT_COUNTED = "hardware_not_counted";

    /** A result measured without the kernel meter: the tick split, no system-call count. */
    public RpcBenchResult(Workload workload, Map<String, String> engineOptions, long requests,
                          ProcessMeter.Window window, Histogram latencyNanos, Duration warmupUsed,
                          boolean warmupSettled, long failedCalls, String firstError, double othersCpuPercent,
                          long jitMillisInWindow) {
        this(workload, engineOptions, requests, window, latencyNanos, warmupUsed, warmupSettled, failedCalls,
                firstError, othersCpuPercent, jitMillisInWindow, KernelWindow.NOT_METERED, Map.of(),
                ServerWork.Timing.NONE);
    }

    /** The window's CPU time less the JIT compiler threads', split into user and system time by {@link #kernel}. */
    public ResourceUsage cpuUsage() {
        return kernel.cpuSplit().applyTo(window.usage());
    }

    /**
     * Every metric of DESIGN's table, keyed by {@link MetricKeys}, {@code syscalls_per_req} where system calls
     * were counted, and {@code instructions_per_req} and {@code cycles_per_req} where the hardware counters were.
     */
    public Map<String, Double> metrics() {
        double n = requests;
        ResourceUsage usage = cpuUsage();
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(MetricKeys.REQS_PER_SEC, n / (window.elapsedNanos() / 1e9));
        m.put(MetricKeys.USER_CPU_US_PER_REQ, usage.userMicros() / n);
        m.put(MetricKeys.SYS_CPU_US_PER_REQ, usage.systemMicros() / n);
        m.put(MetricKeys.CPU_US_PER_REQ, usage.cpuMicros() / n);
        m.put(MetricKeys.CTX_SWITCHES_PER_REQ, usage.contextSwitches() / n);
        m.put(MetricKeys.VOLUNTARY_CTX_SWITCHES_PER_REQ, usage.voluntaryContextSwitches() / n);
        m.put(MetricKeys.INVOLUNTARY_CTX_SWITCHES_PER_REQ, usage.involuntaryContextSwitches() / n);
        if (kernel.syscalls().isPresent()) {
            m.put(MetricKeys.SYSCALLS_PER_REQ, kernel.syscalls().getAsLong() / n);
        }
        if (kernel.instructions().isPresent() && kernel.cycles().isPresent()) {
            m.put(MetricKeys.INSTRUCTIONS_PER_REQ, kernel.instructions().getAsLong() / n);
            m.put(MetricKeys.CYCLES_PER_REQ, kernel.cycles().getAsLong() / n);
        }
        m.put(MetricKeys.PAGE_FAULTS_PER_REQ, usage.pageFaults() / n);
        m.put(MetricKeys.ALLOC_BYTES_PER_REQ, window.allocatedBytes() / n);
        m.put(MetricKeys.LATENCY_P50_US, latencyNanos.getValueAtPercentile(50.0) / 1e3);
        m.put(MetricKeys.LATENCY_P99_US, latencyNanos.getValueAtPercentile(99.0) / 1e3);
        m.put(MetricKeys.LATENCY_P999_US, latencyNanos.getValueAtPercentile(99.9) / 1e3);
        m.put(MetricKeys.GC_COUNT, (double) window.gcCount());
        m.put(MetricKeys.GC_PAUSE_MS, (double) window.gcMillis());
        return m;
    }

    /** Engine options, workload and how the window went, for the trial's environment record. */
    public Map<String, String> environment() {
        return environment(CpuTimeAccounting.host());
    }

    /**
     * As {@link #environment()}, with the host's CPU-time accounting given: how the kernel split user from
     * system time, and under tick sampling the relative standard error (in percent) that the sampling alone gives
     * this window's user and system CPU.
     */
    Map<String, String> environment(CpuTimeAccounting accounting) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("stack", workload.stack().label());
        if (workload.stack() == Stack.PERFLAB) {
            // the other stacks have no engine options; the defaults listed here would be misread as theirs
            env.put("engine_options", format(engineOptions));
        }
        env.put("workload", format(workload.describe()));
        env.put("warmup_seconds", seconds(warmupUsed));
        if (workload.warmup().auto()) {
            env.put("warmup_settled", Boolean.toString(warmupSettled));
        }
        env.put("warmup_evidence", setup.get("warmup_evidence"));
        setup.forEach(env::putIfAbsent);
        env.put("measured_seconds", String.format(java.util.Locale.ROOT, "%.3f", window.elapsedNanos() / 1e9));
        env.put("requests", Long.toString(requests));
        env.put("failed_calls", Long.toString(failedCalls));
        env.put("jit_ms_in_window", Long.toString(jitMillisInWindow));
        env.put("jit_cpu_ms_in_window", String.format(java.util.Locale.ROOT, "%.1f",
                window.compilerThreads().cpuMicros() / 1e3));
        env.put("cpu_time_accounting", accounting.describe());
        splitEnvironment(env, accounting);
        if (kernel.syscalls().isEmpty()) {
            env.put(SYSCALLS_NOT_COUNTED, kernel.syscallsReason());
        }
        if (kernel.instructions().isEmpty() || kernel.cycles().isEmpty()) {
            env.put(HARDWARE_NOT_COUNTED, kernel.hardwareReason());
        }
        if (!Double.isNaN(othersCpuPercent)) {
            env.put("others_cpu_percent", String.format(java.util.Locale.ROOT, "%.1f", othersCpuPercent));
        }
        if (workload.serverWorkNanos() > 0) {
            env.put(SERVER_WORK_TIMED_CALLS, Long.toString(serverWork.calls()));
            if (serverWork.calls() > 0) {
                env.put(SERVER_WORK_MEASURED_NANOS, String.format(Locale.ROOT, "%.1f", serverWork.perCallNanos()));
                env.put(SERVER_WORK_SPIN_NANOS, String.format(Locale.ROOT, "%.1f", serverWork.medianNanos()));
                env.put(SERVER_WORK_CLOCK_NANOS, String.format(Locale.ROOT, "%.1f", serverWork.medianClockNanos()));
            }
        }
        if (firstError != null) {
            env.put("first_error", firstError);
        }
        return env;
    }

    /**
     * The split's source and precision: under a sampled split its samples, their binomial error and, to compare,
     * {@code getrusage}'s own split of the same window; under a tick split the reason and the error of the tick
     * sampling.
     */
    private void splitEnvironment(Map<String, String> env, CpuTimeAccounting accounting) {
        CpuSplit split = kernel.cpuSplit();
        env.put(CPU_SPLIT_SOURCE, split.source().label());
        ResourceUsage tick = window.usage();
        double userError;
        double systemError;
        if (split.source() == CpuSplit.Source.SAMPLED) {
            env.put(CPU_SPLIT_RATE_HZ, Integer.toString(split.rateHz()));
            env.put(CPU_SPLIT_SAMPLES, Long.toString(split.samples()));
            env.put(CPU_SPLIT_USER_SAMPLES, Long.toString(split.userSamples()));
            if (split.lostSamples() > 0) {
                env.put(CPU_SPLIT_LOST_SAMPLES, Long.toString(split.lostSamples()));
            }
            if (split.unnamedSamples() > 0) {
                env.put(CPU_SPLIT_UNNAMED_SAMPLES, Long.toString(split.unnamedSamples()));
                env.put(CPU_SPLIT_UNNAMED_PERCENT, String.format(Locale.ROOT, "%.2f", 100 * split.unnamedShare()));
            }
            env.put(TICK_USER_CPU_US_PER_REQ, perRequest(tick.userMicros()));
            env.put(TICK_SYS_CPU_US_PER_REQ, perRequest(tick.systemMicros()));
            userError = split.userSamplingError();
            systemError = split.systemSamplingError();
        } else {
            env.put(CPU_SPLIT_REASON, split.reason());
            userError = accounting.userSamplingError(tick.userMicros(), tick.systemMicros());
            systemError = accounting.systemSamplingError(tick.userMicros(), tick.systemMicros());
        }
        if (!Double.isNaN(userError)) {
            env.put(USER_SAMPLING_ERROR, String.format(Locale.ROOT, "%.2f", 100 * userError));
        }
        if (!Double.isNaN(systemError)) {
            env.put(SYS_SAMPLING_ERROR, String.format(Locale.ROOT, "%.2f", 100 * systemError));
        }
    }

    private String perRequest(long micros) {
        return String.format(Locale.ROOT, "%.4f", (double) micros / requests);
    }

    /** {@code d} in seconds, to the millisecond, as the environment records durations. */
    static String seconds(Duration d) {
        return String.format(java.util.Locale.ROOT, "%.3f", d.toNanos() / 1e9);
    }

    private static String format(Map<String, String> map) {
        StringBuilder s = new StringBuilder();
        map.forEach((k, v) -> s.append(s.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return s.toString();
    }
}
