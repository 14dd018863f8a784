package io.perflab.runner.rpcbench;

import io.perflab.runner.metering.CpuTimeAccounting;
import io.perflab.runner.metering.ProcessMeter;
import io.perflab.runner.metering.ResourceUsage;
import io.perflab.runner.trial.MetricKeys;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
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
 * @param warmupUsed how long the warmup actually ran
 * @param warmupSettled for an auto warmup, whether throughput and CPU time per call settled before the cap
 * @param failedCalls calls that ended with an error in the measured window
 * @param firstError the first such error, or null
 * @param othersCpuPercent share of the host's CPU capacity that other processes used during the window, in
 *     percent (NaN where unknown): a disturbed trial shows here
 * @param jitMillisInWindow JIT compilation time during the window, ms (the JVM's figure, wall time of the
 *     compilations): a warmup too short for the JIT shows here
 * @param setup environment entries of what the trial did before its windows: {@code warmup_evidence}, the last
 *     one-second steps of the warmup (calls per second and CPU time per call with their spread, and the JIT's work
 *     in the last step — what "settled" rests on), and the calibration of any injected server work
 *     ({@link ServerWork#describe()})
 */
public record RpcBenchResult(Workload workload, Map<String, String> engineOptions, long requests,
                             ProcessMeter.Window window, Histogram latencyNanos, Duration warmupUsed,
                             boolean warmupSettled, long failedCalls, String firstError,
                             double othersCpuPercent, long jitMillisInWindow, Map<String, String> setup) {

    public RpcBenchResult {
        setup = Map.copyOf(setup);
    }

    /**
     * Environment key: the relative standard error, in percent, that the kernel's tick sampling of user versus
     * system time gives the window's user CPU ({@link CpuTimeAccounting}); absent where the split is exact or
     * unknown.
     */
    public static final String USER_SAMPLING_ERROR = "user_cpu_sampling_error_percent";
    /** As {@link #USER_SAMPLING_ERROR}, for system CPU. */
    public static final String SYS_SAMPLING_ERROR = "sys_cpu_sampling_error_percent";

    /** Every metric of DESIGN's table, keyed by {@link MetricKeys}. */
    public Map<String, Double> metrics() {
        double n = requests;
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(MetricKeys.REQS_PER_SEC, n / (window.elapsedNanos() / 1e9));
        m.put(MetricKeys.USER_CPU_US_PER_REQ, window.usage().userMicros() / n);
        m.put(MetricKeys.SYS_CPU_US_PER_REQ, window.usage().systemMicros() / n);
        m.put(MetricKeys.CPU_US_PER_REQ, window.usage().cpuMicros() / n);
        m.put(MetricKeys.CTX_SWITCHES_PER_REQ, window.usage().contextSwitches() / n);
        m.put(MetricKeys.VOLUNTARY_CTX_SWITCHES_PER_REQ, window.usage().voluntaryContextSwitches() / n);
        m.put(MetricKeys.INVOLUNTARY_CTX_SWITCHES_PER_REQ, window.usage().involuntaryContextSwitches() / n);
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
        ResourceUsage usage = window.usage();
        double userError = accounting.userSamplingError(usage.userMicros(), usage.systemMicros());
        if (!Double.isNaN(userError)) {
            env.put(USER_SAMPLING_ERROR, String.format(java.util.Locale.ROOT, "%.2f", 100 * userError));
            env.put(SYS_SAMPLING_ERROR, String.format(java.util.Locale.ROOT, "%.2f",
                    100 * accounting.systemSamplingError(usage.userMicros(), usage.systemMicros())));
        }
        if (!Double.isNaN(othersCpuPercent)) {
            env.put("others_cpu_percent", String.format(java.util.Locale.ROOT, "%.1f", othersCpuPercent));
        }
        if (firstError != null) {
            env.put("first_error", firstError);
        }
        return env;
    }

    private static String seconds(Duration d) {
        return String.format(java.util.Locale.ROOT, "%.3f", d.toNanos() / 1e9);
    }

    private static String format(Map<String, String> map) {
        StringBuilder s = new StringBuilder();
        map.forEach((k, v) -> s.append(s.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return s.toString();
    }
}
