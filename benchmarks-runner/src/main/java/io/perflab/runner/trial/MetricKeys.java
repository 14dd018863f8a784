package io.perflab.runner.trial;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The metric keys of an engine trial, as DESIGN's table names them, and those of a command trial.
 *
 * <p>Per-request figures divide a {@code getrusage(RUSAGE_SELF)} delta by the requests completed in the measured
 * window, so they include the client threads as well as the server (about 60 % of the CPU on loopback).
 */
public final class MetricKeys {

    /** Completed calls per second of wall time in the measured window. Higher is better. */
    public static final String REQS_PER_SEC = "reqs_per_sec";
    /** User CPU time of the whole process per request, µs. */
    public static final String USER_CPU_US_PER_REQ = "user_cpu_us_per_req";
    /** System CPU time of the whole process per request, µs. */
    public static final String SYS_CPU_US_PER_REQ = "sys_cpu_us_per_req";
    /** User plus system CPU time per request, µs. */
    public static final String CPU_US_PER_REQ = "cpu_us_per_req";
    /** Voluntary plus involuntary context switches per request. */
    public static final String CTX_SWITCHES_PER_REQ = "ctx_switches_per_req";
    public static final String VOLUNTARY_CTX_SWITCHES_PER_REQ = "voluntary_ctx_switches_per_req";
    public static final String INVOLUNTARY_CTX_SWITCHES_PER_REQ = "involuntary_ctx_switches_per_req";
    /**
     * System calls per request ({@code raw_syscalls:sys_enter}), every thread but the JIT compiler threads; only
     * where perf events may count the tracepoint ({@link #ENGINE_WHERE_TRACED}).
     */
    public static final String SYSCALLS_PER_REQ = "syscalls_per_req";
    /**
     * Instructions per request, user and kernel mode, every thread but the JIT compiler threads; only where the CPU's
     * hardware counters may be counted ({@link #ENGINE_WHERE_COUNTED}), which most virtual machines do not give.
     */
    public static final String INSTRUCTIONS_PER_REQ = "instructions_per_req";
    /** CPU cycles per request, counted with {@link #INSTRUCTIONS_PER_REQ}. */
    public static final String CYCLES_PER_REQ = "cycles_per_req";
    /** Page faults (minor + major) per request, whole process less the JIT compiler threads. */
    public static final String PAGE_FAULTS_PER_REQ = "page_faults_per_req";
    /** Bytes allocated on the heap by all threads per request. */
    public static final String ALLOC_BYTES_PER_REQ = "alloc_bytes_per_req";
    /** Call latency percentiles seen by the client, µs. */
    public static final String LATENCY_P50_US = "latency_p50_us";
    public static final String LATENCY_P99_US = "latency_p99_us";
    public static final String LATENCY_P999_US = "latency_p999_us";
    /**
     * The host's speed while the window ran: the 25th percentile of the CPU time of 1,000 steps of the runner's
     * probe loop ({@link io.perflab.runner.metering.HostProbe}), ns. Recorded by paired designs, whose runner probes
     * the host. Windows stored before 12-02 afternoon hold the system call's figure here instead.
     */
    public static final String HOST_PROBE_NS = "host_probe_ns";
    /**
     * Recorded beside {@link #HOST_PROBE_NS}, not scaled by: the tenth percentile of the CPU time of one system call
     * of the runner's probe, ns (the host's speed until 12-02 afternoon).
     */
    public static final String HOST_PROBE_SYSCALL_NS = "host_probe_syscall_ns";
    /** The probe time the {@code _adj} metrics are scaled to: a host taking 1 µs per 1,000 probe steps. */
    public static final double HOST_PROBE_REFERENCE_NS = 1000;
    /** {@link #CPU_US_PER_REQ} scaled to the host's speed: × {@link #HOST_PROBE_REFERENCE_NS} / host_probe_ns. */
    public static final String CPU_US_PER_REQ_ADJ = "cpu_us_per_req_adj";
    public static final String USER_CPU_US_PER_REQ_ADJ = "user_cpu_us_per_req_adj";
    public static final String SYS_CPU_US_PER_REQ_ADJ = "sys_cpu_us_per_req_adj";
    /** {@link #REQS_PER_SEC} scaled to the host's speed: × host_probe_ns / {@link #HOST_PROBE_REFERENCE_NS}. */
    public static final String REQS_PER_SEC_ADJ = "reqs_per_sec_adj";
    /** Each metric scaled to the host's speed, and its adjusted key. */
    public static final Map<String, String> HOST_ADJUSTED = orderedMap(CPU_US_PER_REQ, CPU_US_PER_REQ_ADJ,
            USER_CPU_US_PER_REQ, USER_CPU_US_PER_REQ_ADJ, SYS_CPU_US_PER_REQ, SYS_CPU_US_PER_REQ_ADJ,
            REQS_PER_SEC, REQS_PER_SEC_ADJ);

    /** Collections in the measured window, all collectors. */
    public static final String GC_COUNT = "gc_count";
    /** Accumulated collection time in the measured window, ms. */
    public static final String GC_PAUSE_MS = "gc_pause_ms";

    /**
     * The metrics a change to the engine is judged on first, in the order pages, reports and the command line show
     * them: the three figures the seeds' reviews read off rpc-bench (user CPU, system CPU and context switches per
     * request), then throughput. The one list of headline metrics of the project.
     */
    public static final List<String> HEADLINE = List.of(USER_CPU_US_PER_REQ, SYS_CPU_US_PER_REQ,
            CTX_SWITCHES_PER_REQ, REQS_PER_SEC);

    /** Every metric an engine trial reports on any host, in DESIGN's order. */
    public static final List<String> ENGINE = List.of(REQS_PER_SEC, USER_CPU_US_PER_REQ, SYS_CPU_US_PER_REQ,
            CPU_US_PER_REQ, CTX_SWITCHES_PER_REQ, VOLUNTARY_CTX_SWITCHES_PER_REQ, INVOLUNTARY_CTX_SWITCHES_PER_REQ,
            PAGE_FAULTS_PER_REQ, ALLOC_BYTES_PER_REQ, LATENCY_P50_US, LATENCY_P99_US, LATENCY_P999_US, GC_COUNT,
            GC_PAUSE_MS);

    /**
     * The metrics an engine trial adds where perf events may count tracepoints (the trial's environment says why
     * they are missing elsewhere).
     */
    public static final List<String> ENGINE_WHERE_TRACED = List.of(SYSCALLS_PER_REQ);

    /**
     * The metrics an engine trial adds where the CPU's hardware counters may be counted (the trial's environment says
     * why they are missing elsewhere).
     */
    public static final List<String> ENGINE_WHERE_COUNTED = List.of(INSTRUCTIONS_PER_REQ, CYCLES_PER_REQ);

    /**
     * What a window of an engine variant in a paired design reports: {@link #ENGINE}, then the host's speed and the
     * metrics scaled to it.
     */
    public static final List<String> PAIRED_ENGINE = Stream.of(ENGINE,
            List.of(HOST_PROBE_NS, HOST_PROBE_SYSCALL_NS), List.copyOf(HOST_ADJUSTED.values()))
            .flatMap(List::stream).toList();

    /**
     * Every metric an engine trial or window may report: {@link #PAIRED_ENGINE}, {@link #ENGINE_WHERE_TRACED} and
     * {@link #ENGINE_WHERE_COUNTED}. An engine trial reports nothing else.
     */
    public static final List<String> ENGINE_ALL = Stream.of(PAIRED_ENGINE, ENGINE_WHERE_TRACED, ENGINE_WHERE_COUNTED)
            .flatMap(List::stream).toList();

    /** Wall time of one run of a shell command, ms. */
    public static final String WALL_MS = "wall_ms";
    /** User CPU time of the command and its waited-for descendants ({@code RUSAGE_CHILDREN} delta), ms. */
    public static final String USER_CPU_MS = "user_cpu_ms";
    public static final String SYS_CPU_MS = "sys_cpu_ms";
    public static final String CPU_MS = "cpu_ms";
    public static final String CTX_SWITCHES = "ctx_switches";
    public static final String VOLUNTARY_CTX_SWITCHES = "voluntary_ctx_switches";
    public static final String INVOLUNTARY_CTX_SWITCHES = "involuntary_ctx_switches";
    /**
     * The command's exit status, among the figures of a failed command trial only: a non-zero status marks the
     * trial failed, so in every trial that is compared it would be a constant 0 ("not compared").
     */
    public static final String EXIT_STATUS = "exit_status";

    /** Every metric a command trial that ran to its end reports. */
    public static final List<String> COMMAND = List.of(WALL_MS, USER_CPU_MS, SYS_CPU_MS, CPU_MS, CTX_SWITCHES,
            VOLUNTARY_CTX_SWITCHES, INVOLUNTARY_CTX_SWITCHES);

    /**
     * Whether a metric read from a command's output would take the name of one PerfLab measures of the command: its
     * figures, its exit status, and what a paired design's runs record beside them (the host's speed and the
     * metrics scaled to it, {@link #withHostSpeed}).
     */
    public static boolean measuredOfCommands(String key) {
        return COMMAND.contains(key) || EXIT_STATUS.equals(key) || HOST_PROBE_NS.equals(key)
                || HOST_PROBE_SYSCALL_NS.equals(key) || HOST_ADJUSTED.containsValue(key);
    }

    private MetricKeys() {
    }

    /** Whether a lower value of {@code key} is better (true for everything but throughput). */
    public static boolean lowerIsBetter(String key) {
        return !REQS_PER_SEC.equals(key) && !REQS_PER_SEC_ADJ.equals(key);
    }

    /** {@link #withHostSpeed(Map, double, double)} without the system call's figure. */
    public static Map<String, Double> withHostSpeed(Map<String, Double> metrics, double probeNanos) {
        return withHostSpeed(metrics, probeNanos, Double.NaN);
    }

    /**
     * {@code metrics} with the host's speed of its window ({@link #HOST_PROBE_NS}), each time-based metric it holds
     * scaled to that speed ({@link #HOST_ADJUSTED}), and the probe's system-call figure
     * ({@link #HOST_PROBE_SYSCALL_NS}) where it has one; unchanged when the speed has no figure (NaN or not
     * positive).
     */
    public static Map<String, Double> withHostSpeed(Map<String, Double> metrics, double probeNanos,
                                                    double syscallNanos) {
        if (!usable(probeNanos)) {
            return metrics;
        }
        Map<String, Double> adjusted = new LinkedHashMap<>(metrics);
        adjusted.put(HOST_PROBE_NS, probeNanos);
        if (usable(syscallNanos)) {
            adjusted.put(HOST_PROBE_SYSCALL_NS, syscallNanos);
        }
        for (Map.Entry<String, String> e : HOST_ADJUSTED.entrySet()) {
            Double value = metrics.get(e.getKey());
            if (value != null) {
                double scale = lowerIsBetter(e.getKey()) ? HOST_PROBE_REFERENCE_NS / probeNanos
                        : probeNanos / HOST_PROBE_REFERENCE_NS;
                adjusted.put(e.getValue(), value * scale);
            }
        }
        return adjusted;
    }

    private static boolean usable(double nanos) {
        return nanos > 0 && !Double.isInfinite(nanos);
    }

    private static Map<String, String> orderedMap(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }
}
