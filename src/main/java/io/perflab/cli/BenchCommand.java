package io.perflab.cli;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.json.RunnerJson;
import io.perflab.runner.metering.CpuSampler;
import io.perflab.runner.metering.CpuSplitMode;
import io.perflab.runner.metering.KernelMeter;
import io.perflab.runner.metering.ProcessMeter;
import io.perflab.runner.rpcbench.RpcBench;
import io.perflab.runner.rpcbench.RpcBenchReport;
import io.perflab.runner.rpcbench.RpcBenchResult;
import io.perflab.runner.trial.HostEnvironment;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.QuietLogging;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.stats.Display;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code perflab bench}: one rpc-bench trial in this process, reported as rpc-bench does, then PerfLab's extra
 * lines; or, with {@code --json}, one JSON object with every metric and the environment.
 */
@Command(name = "bench",
        description = "Run one rpc-bench trial in this process: server and clients on loopback, warmup, then a "
                + "measured window. Prints rpc-bench's report (or --json). CPU and context switches per request "
                + "cover the whole process, client and server, less the JIT compiler threads.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.DONE, "1:no call completed in a measured window", ExitCodes.USAGE,
                ExitCodes.INTERNAL})
final class BenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private WorkloadOptions workloadOptions = new WorkloadOptions();

    @Option(names = "--set", paramLabel = "option=value",
            description = "Engine option, repeatable: completion, callBufferInitialBytes, allocator, callObjects, "
                    + "transport, flush, tls (see 'perflab ab --help').")
    private List<String> settings = new ArrayList<>();

    @Option(names = "--json", description = "Print one JSON object: every metric key, \"cpu_split_source\" "
            + "and \"environment\" (with --windows, an object whose \"windows\" array holds one such object per "
            + "window).")
    private boolean json;

    @Option(names = "--windows", paramLabel = "N",
            description = "Measure N windows back to back after one warmup (default: 1) and print each window's "
                    + "figures and their spread: the noise within one JVM, to set beside the noise across fresh JVMs "
                    + "that 'perflab calibrate' measures. At most " + ExperimentPlan.MAX_WINDOWS_PER_PAIR + ".")
    private int windows = 1;

    @Option(names = "--cpu-split", paramLabel = "auto|sampled|tick",
            description = "How user and system CPU are told apart: sampled = cpu-clock samples of every CPU "
                    + "(needs perf events: root, CAP_PERFMON or kernel.perf_event_paranoid <= 0), tick = getrusage's "
                    + "own split (tick-sampled on most kernels), auto = sampled where allowed (default: auto). "
                    + "Trial JVMs take -D" + KernelMeter.MODE_PROPERTY + "=….")
    private String cpuSplit = CpuSplitMode.AUTO.label();

    @Option(names = "--cpu-split-hz", paramLabel = "HZ",
            description = "cpu-clock samples per second of each CPU (default: " + CpuSampler.DEFAULT_RATE_HZ
                    + "; trial JVMs: -D" + KernelMeter.RATE_PROPERTY + "=…).")
    private int cpuSplitHz = CpuSampler.DEFAULT_RATE_HZ;

    @Option(names = "--count-syscalls", paramLabel = "true|false", arity = "1",
            description = "Count system calls per request with the raw_syscalls:sys_enter tracepoint where "
                    + "allowed (default: true; trial JVMs: -D" + KernelMeter.SYSCALLS_PROPERTY + "=…).")
    private boolean countSyscalls = true;

    @Option(names = "--count-hardware", paramLabel = "true|false", arity = "1",
            description = "Count instructions and CPU cycles per request with the CPU's hardware counters where the "
                    + "host gives them, which most virtual machines do not (default: true; trial JVMs: -D"
                    + KernelMeter.HARDWARE_PROPERTY + "=…).")
    private boolean countHardware = true;

    @Override
    public Integer call() {
        QuietLogging.apply();
        checkWindowsAndSplit();
        EngineOptionArguments.requireAgreeingTls(spec.commandLine(), "--set", settings);
        var workload = workloadOptions.workload();
        EngineOptionArguments.requireEngineStack(spec.commandLine(), "--set", settings, workload.stack());
        EngineOptions options = EngineOptionArguments.parse(spec.commandLine(), "--set", settings);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        KernelMeter kernel;
        try {
            kernel = KernelMeter.of(CpuSplitMode.parse("--cpu-split", cpuSplit), cpuSplitHz, countSyscalls)
                    .countingHardware(countHardware);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage().startsWith("--") ? e.getMessage()
                    : "--cpu-split-hz: " + e.getMessage());
        }
        Map<String, String> environment = new LinkedHashMap<>(HostEnvironment.capture());
        LoadWarning.check(err);
        List<RpcBenchResult> results = new RpcBench(options, workload,
                ProcessMeter.forThisProcess(), kernel, System::nanoTime,
                json ? line -> { } : line -> err.println("perflab bench: " + line)).run(windows);
        for (RpcBenchResult result : results) {
            if (result.requests() == 0) {
                err.println("perflab bench: no call completed in the measured window"
                        + (result.firstError() == null ? "" : "; first error: " + result.firstError()));
                return 1;
            }
        }
        List<Map<String, Object>> documents = new ArrayList<>();
        for (RpcBenchResult result : results) {
            Map<String, String> env = new LinkedHashMap<>(environment);
            env.putAll(result.environment());
            Map<String, Object> document = new LinkedHashMap<>(result.metrics());
            document.put(RpcBenchResult.CPU_SPLIT_SOURCE, env.get(RpcBenchResult.CPU_SPLIT_SOURCE));
            document.put("environment", env);
            documents.add(document);
        }
        if (json) {
            out.println(RunnerJson.mapper().writeValueAsString(windows == 1 ? documents.get(0)
                    : Map.of("windows", documents)));
        } else if (windows == 1) {
            out.print(RpcBenchReport.format(results.get(0)));
        } else {
            out.print(windowsReport(results));
        }
        out.flush();
        return results.stream().anyMatch(r -> r.failedCalls() > 0) ? 1 : 0;
    }

    /**
     * Refuses a number of windows outside 1 to {@value ExperimentPlan#MAX_WINDOWS_PER_PAIR} (the most one trial JVM
     * measures in a paired design; each window's result is kept until the report), and a sampling rate with the tick
     * split, which samples nothing.
     */
    private void checkWindowsAndSplit() {
        if (windows < 1 || windows > ExperimentPlan.MAX_WINDOWS_PER_PAIR) {
            throw new ParameterException(spec.commandLine(), "--windows must be between 1 and "
                    + ExperimentPlan.MAX_WINDOWS_PER_PAIR + " (the most windows one trial JVM of a paired design "
                    + "measures), got " + windows);
        }
        boolean tick;
        try {
            tick = CpuSplitMode.parse("--cpu-split", cpuSplit) == CpuSplitMode.TICK;
        } catch (IllegalArgumentException refusedBelow) {
            tick = false;
        }
        if (tick && spec.commandLine().getParseResult().hasMatchedOption("--cpu-split-hz")) {
            throw new ParameterException(spec.commandLine(), "--cpu-split-hz sets the rate of the sampled split; "
                    + "--cpu-split tick samples nothing (it is getrusage's own split): give --cpu-split sampled or "
                    + "auto, or leave --cpu-split-hz out");
        }
    }

    /** One line per window, then each headline metric's mean, CV and sampling floor across the windows. */
    private static String windowsReport(List<RpcBenchResult> results) {
        StringBuilder s = new StringBuilder();
        List<TrialResult> trials = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            RpcBenchResult r = results.get(i);
            Map<String, Double> m = r.metrics();
            s.append(String.format(Locale.ROOT, "window %2d/%d  reqs/s %.0f  user %.3fus  sys %.3fus  cpu %.3fus  "
                    + "ctxsw %.4f per req%n", i + 1, results.size(), m.get(MetricKeys.REQS_PER_SEC),
                    m.get(MetricKeys.USER_CPU_US_PER_REQ), m.get(MetricKeys.SYS_CPU_US_PER_REQ),
                    m.get(MetricKeys.CPU_US_PER_REQ), m.get(MetricKeys.CTX_SWITCHES_PER_REQ)));
            trials.add(new TrialResult("window", i, TrialStatus.OK, null, null, ProcessHandle.current().pid(), m,
                    r.environment(), null));
        }
        RpcBenchResult first = results.get(0);
        s.append(String.format(Locale.ROOT, "%n%d windows of %s s in one JVM after %s s of warmup (%s)%n%n",
                results.size(), first.environment().get("measured_seconds"),
                first.environment().get("warmup_seconds"), first.environment().get("workload")));
        List<Spread> rows = Spread.of(trials);
        String format = "%-22s %12s %7s %7s%n";
        s.append(String.format(Locale.ROOT, format, "metric", "mean", "CV", "floor"));
        for (Spread row : rows) {
            s.append(String.format(Locale.ROOT, format, row.metric(), Display.value(row.mean()),
                    Spread.percent(row.cv() * 100), Spread.percent(row.floorPercent())));
        }
        s.append("\nCV = sd/mean across the windows of this JVM. Set it beside the CV across fresh JVMs that "
                + "'perflab calibrate' measures: where that is much larger, each JVM's start adds noise (JIT "
                + "decisions, memory layout, thread placement) that only more trials average out; where they are "
                + "alike, the noise is the machine's, drifting over time, which interleaved trials spread over both "
                + "sides.\n");
        Spread.floorNote(trials).ifPresent(s::append);
        return s.toString();
    }
}
