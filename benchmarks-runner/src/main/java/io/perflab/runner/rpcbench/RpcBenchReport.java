package io.perflab.runner.rpcbench;

import io.perflab.runner.metering.CpuSplit;
import io.perflab.runner.metering.CpuTimeAccounting;
import io.perflab.runner.trial.MetricKeys;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import java.util.Map;

/**
 * rpc-bench's text report, then PerfLab's extra lines. The first part keeps rpc-bench's labels and its number
 * style (C++ stream output: six significant digits) so that reports of both can be compared side by side and
 * parsed by the same upload adapter:
 * <pre>
 * Mode:            Sync
 * Client threads:  16
 * Worker threads:  1
 * Server reactors: 4
 * Encryption:      0
 * ----------------------------------
 * Reqs/sec:         155254
 * User CPU per req: 31.7217us
 * Sys CPU per req:  51.3626us
 * Ctx Sw. per req:  3.46345
 * </pre>
 */
public final class RpcBenchReport {

    static final String RULE = "----------------------------------";

    private RpcBenchReport() {
    }

    /** The report of {@code result}, lines separated by {@code \n}, ending with one. */
    public static String format(RpcBenchResult result) {
        return format(result, CpuTimeAccounting.host());
    }

    /** As {@link #format(RpcBenchResult)}, on a host whose CPU-time accounting is {@code accounting}. */
    static String format(RpcBenchResult result, CpuTimeAccounting accounting) {
        Workload w = result.workload();
        Map<String, Double> m = result.metrics();
        Map<String, String> env = result.environment(accounting);
        StringBuilder s = new StringBuilder();
        line(s, "Mode:            ", w.mode() == CallMode.SYNC ? "Sync" : "Async");
        line(s, "Client threads:  ", Integer.toString(w.clientThreads()));
        if (w.mode() == CallMode.ASYNC) {
            line(s, "Call concurrency: ", Integer.toString(w.asyncConcurrency()));
        }
        line(s, "Worker threads:  ", Integer.toString(w.workerThreads()));
        line(s, "Server reactors: ", Integer.toString(w.serverReactors()));
        line(s, "Encryption:      ", w.encryption() ? "1" : "0");
        s.append(RULE).append('\n');
        line(s, "Reqs/sec:         ", sixDigits(m.get(MetricKeys.REQS_PER_SEC)));
        line(s, "User CPU per req: ", sixDigits(m.get(MetricKeys.USER_CPU_US_PER_REQ)) + "us");
        line(s, "Sys CPU per req:  ", sixDigits(m.get(MetricKeys.SYS_CPU_US_PER_REQ)) + "us");
        line(s, "Ctx Sw. per req:  ", sixDigits(m.get(MetricKeys.CTX_SWITCHES_PER_REQ)));
        s.append(RULE).append('\n');
        line(s, "Vol./invol. Ctx Sw. per req: ", sixDigits(m.get(MetricKeys.VOLUNTARY_CTX_SWITCHES_PER_REQ)) + " / "
                + sixDigits(m.get(MetricKeys.INVOLUNTARY_CTX_SWITCHES_PER_REQ)));
        Double syscalls = m.get(MetricKeys.SYSCALLS_PER_REQ);
        line(s, "Syscalls per req: ", syscalls != null ? sixDigits(syscalls)
                : "not counted (" + env.get(RpcBenchResult.SYSCALLS_NOT_COUNTED) + ")");
        Double instructions = m.get(MetricKeys.INSTRUCTIONS_PER_REQ);
        line(s, "Instructions / cycles per req: ", instructions != null ? sixDigits(instructions) + " / "
                + sixDigits(m.get(MetricKeys.CYCLES_PER_REQ))
                : "not counted (" + env.get(RpcBenchResult.HARDWARE_NOT_COUNTED) + ")");
        line(s, "Page faults per req: ", sixDigits(m.get(MetricKeys.PAGE_FAULTS_PER_REQ)));
        line(s, "Alloc per req:    ", sixDigits(m.get(MetricKeys.ALLOC_BYTES_PER_REQ)) + " B");
        line(s, "Latency p50:      ", sixDigits(m.get(MetricKeys.LATENCY_P50_US)) + "us");
        line(s, "Latency p99:      ", sixDigits(m.get(MetricKeys.LATENCY_P99_US)) + "us");
        line(s, "Latency p99.9:    ", sixDigits(m.get(MetricKeys.LATENCY_P999_US)) + "us");
        line(s, "GC:               ", m.get(MetricKeys.GC_COUNT).longValue() + " collections, "
                + m.get(MetricKeys.GC_PAUSE_MS).longValue() + " ms");
        line(s, "Stack:            ", w.stack().label());
        if (w.stack() == Stack.PERFLAB) {
            line(s, "Engine options:   ", env.get("engine_options"));
        }
        line(s, "Window:           ", result.requests() + " requests in "
                + env.get("measured_seconds") + " s after " + warmupText(result));
        line(s, "JIT in window:    ", result.jitMillisInWindow() + " ms of compilation, "
                + env.get("jit_cpu_ms_in_window") + " ms of compiler-thread CPU (not counted above)");
        line(s, "User/sys split:   ", splitText(result.kernel().cpuSplit(), env));
        if (!Double.isNaN(result.othersCpuPercent())) {
            line(s, "Other processes:  ", String.format(Locale.ROOT, "%.1f %% of the host's CPU during the window",
                    result.othersCpuPercent()));
        }
        if (result.failedCalls() > 0) {
            line(s, "Failed calls:     ", result.failedCalls() + " (first: " + result.firstError() + ")");
        }
        s.append("CPU and context switches per request cover the whole process, client and server threads as in "
                + "rpc-bench, except the JIT's compiler threads.\n");
        return s.toString();
    }

    /** Where the split of CPU time into user and system time comes from, and its error from sampling alone. */
    private static String splitText(CpuSplit split, Map<String, String> env) {
        String error = env.containsKey(RpcBenchResult.USER_SAMPLING_ERROR)
                ? ": ±" + env.get(RpcBenchResult.USER_SAMPLING_ERROR) + " % on user CPU and ±"
                + env.getOrDefault(RpcBenchResult.SYS_SAMPLING_ERROR, "?") + " % on system CPU in this window from "
                + "sampling alone; their sum is exact"
                : "";
        if (split.source() == CpuSplit.Source.SAMPLED) {
            return String.format(Locale.ROOT, "sampled with cpu-clock at %d Hz on each CPU (cpu_split_source=sampled): "
                    + "%d samples, %.1f %% in user mode%s%s%s (getrusage's tick split: user %sus, sys %sus)",
                    split.rateHz(), split.samples(), 100.0 * split.userSamples() / split.samples(), error,
                    split.lostSamples() > 0 ? "; " + split.lostSamples() + " samples lost" : "",
                    split.unnamedSamples() > 0 ? "; " + split.unnamedSamples() + " samples ("
                            + env.get(RpcBenchResult.CPU_SPLIT_UNNAMED_PERCENT) + " %) of threads that ended before "
                            + "they could be named, left out" : "",
                    env.get(RpcBenchResult.TICK_USER_CPU_US_PER_REQ), env.get(RpcBenchResult.TICK_SYS_CPU_US_PER_REQ));
        }
        String kernelSplit = error.isEmpty()
                ? "getrusage's (" + env.get("cpu_time_accounting") + ")"
                : "sampled by the kernel at each timer tick (" + env.get("cpu_time_accounting") + ")";
        return kernelSplit + error + " (cpu_split_source=tick; no cpu-clock samples: " + split.reason() + ")";
    }

    /**
     * How long the warmup's steps ran and how it was set, e.g. {@code 2.004 s of warmup (fixed: 2 s), after 0.413 s
     * of setup}: a fixed warmup runs its time and is judged by nothing; the setup before its steps is the meter's
     * first reading and any server work's calibration.
     */
    private static String warmupText(RpcBenchResult result) {
        String used = result.environment().get("warmup_seconds") + " s of warmup";
        String setup = result.setup().get(WarmupOutcome.SETUP_SECONDS);
        String after = setup == null ? "" : ", after " + setup + " s of setup";
        Warmup warmup = result.workload().warmup();
        if (!warmup.auto()) {
            return used + " (fixed: " + Seconds.format(warmup.duration()) + " s)" + after;
        }
        return used + (result.warmupSettled() ? " (auto: throughput and CPU per call settled)"
                : " (auto: throughput and CPU per call did not settle within " + Seconds.format(
                        warmup.duration()) + " s)") + after;
    }

    private static void line(StringBuilder s, String label, String value) {
        s.append(label).append(value).append('\n');
    }

    /** A number as C++'s default stream output prints it: six significant digits, trailing zeros dropped. */
    static String sixDigits(double value) {
        if (!Double.isFinite(value)) {
            return Double.toString(value).toLowerCase(Locale.ROOT);
        }
        if (value == 0) {
            return "0";
        }
        BigDecimal rounded = new BigDecimal(value).round(new MathContext(6)).stripTrailingZeros();
        double magnitude = Math.abs(rounded.doubleValue());
        if (magnitude >= 1e6 || magnitude < 1e-4) {
            return String.format(Locale.ROOT, "%.5e", value).replaceFirst("\\.?0+e", "e");
        }
        return rounded.toPlainString();
    }
}
