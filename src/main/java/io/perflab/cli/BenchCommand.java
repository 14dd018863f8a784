package io.perflab.cli;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.json.Json;
import io.perflab.runner.metering.ProcessMeter;
import io.perflab.runner.rpcbench.RpcBench;
import io.perflab.runner.rpcbench.RpcBenchReport;
import io.perflab.runner.rpcbench.RpcBenchResult;
import io.perflab.runner.trial.HostEnvironment;
import io.perflab.runner.trial.QuietLogging;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code perflab bench}: one rpc-bench trial in this process, reported as rpc-bench does, then PerfLab's extra
 * lines; or, with {@code --json}, one JSON object with every metric and the environment.
 */
@Command(name = "bench",
        description = "Run one rpc-bench trial in this process: server and clients on loopback, warmup, then a "
                + "measured window. Prints rpc-bench's report (or --json). CPU and context switches per request "
                + "cover the whole process, client and server, less the JIT compiler threads.")
final class BenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private WorkloadOptions workloadOptions = new WorkloadOptions();

    @Option(names = "--set", paramLabel = "option=value",
            description = "Engine option, repeatable: completion, callBufferInitialBytes, allocator, callObjects, "
                    + "transport, flush, tls (see 'perflab ab --help').")
    private List<String> settings = new ArrayList<>();

    @Option(names = "--json", description = "Print one JSON object: every metric key plus \"environment\".")
    private boolean json;

    @Override
    public Integer call() {
        QuietLogging.apply();
        var workload = workloadOptions.workload();
        Map<String, String> options = EngineOptionArguments.parse(spec.commandLine(), "--set", settings);
        EngineOptionArguments.requireEngineStack(spec.commandLine(), "--set", options, workload.stack());
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Map<String, String> environment = new LinkedHashMap<>(HostEnvironment.capture());
        LoadWarning.check(err);
        RpcBenchResult result = new RpcBench(EngineOptions.fromMap(options), workload, ProcessMeter.forThisProcess(),
                System::nanoTime, json ? line -> { } : line -> err.println("perflab bench: " + line)).run();
        environment.putAll(result.environment());
        if (result.requests() == 0) {
            err.println("perflab bench: no call completed in the measured window"
                    + (result.firstError() == null ? "" : "; first error: " + result.firstError()));
            return 1;
        }
        if (json) {
            Map<String, Object> document = new LinkedHashMap<>(result.metrics());
            document.put("environment", environment);
            out.println(Json.write(document));
        } else {
            out.print(RpcBenchReport.format(result));
        }
        out.flush();
        return result.failedCalls() > 0 ? 1 : 0;
    }
}
