package io.perflab.cli;

import io.perflab.runner.rpcbench.Workload;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** rpc-bench's workload flags, shared by {@code bench} and {@code ab}; values are checked by {@link Workload}. */
final class WorkloadOptions {

    @Spec(Spec.Target.MIXEE)
    private CommandSpec mixee;

    @Option(names = "--stack", paramLabel = "perflab|grpc|netty",
            description = "RPC stack under load: PerfLab's engine, gRPC-java or bare Netty (default: perflab).")
    private String stack;

    @Option(names = "--mode", paramLabel = "sync|async", description = "Call mode (default: sync).")
    private String mode;

    @Option(names = "--client-threads", paramLabel = "N",
            description = "Sync: client threads, each with its own connection; async: client reactors (default: 16).")
    private String clientThreads;

    @Option(names = "--async-concurrency", paramLabel = "N",
            description = "Outstanding calls in async mode (default: 60).")
    private String asyncConcurrency;

    @Option(names = "--worker-threads", paramLabel = "N",
            description = "Server worker threads; 0 runs handlers on the reactors (default: 1).")
    private String workerThreads;

    @Option(names = "--server-reactors", paramLabel = "N", description = "Server event loops (default: 4).")
    private String serverReactors;

    @Option(names = "--encryption", description = "TLS on the connections (the engine's tls option).")
    private boolean encryption;

    @Option(names = "--request-bytes", paramLabel = "N",
            description = "Echo request payload; 0 with --response-bytes 0 calls Calculator.Add (default: 0).")
    private String requestBytes;

    @Option(names = "--response-bytes", paramLabel = "N", description = "Echo response payload (default: 0).")
    private String responseBytes;

    @Option(names = "--warmup-seconds", paramLabel = "S|auto[:MAX]",
            description = "Warmup before the measured window: seconds, or auto = until throughput over 1 s windows "
                    + "settles within 2 %% (capped at MAX, default 30) (default: auto:20).")
    private String warmupSeconds;

    @Option(names = "--run-seconds", paramLabel = "S", description = "Length of the measured window (default: 5).")
    private String runSeconds;

    /** The workload the flags describe, rpc-bench's defaults for the rest. */
    Workload workload() {
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("--stack", stack);
        flags.put("--mode", mode);
        flags.put("--client-threads", clientThreads);
        flags.put("--async-concurrency", asyncConcurrency);
        flags.put("--worker-threads", workerThreads);
        flags.put("--server-reactors", serverReactors);
        flags.put("--request-bytes", requestBytes);
        flags.put("--response-bytes", responseBytes);
        flags.put("--warmup-seconds", warmupSeconds);
        flags.put("--run-seconds", runSeconds);
        Workload workload = Workload.DEFAULTS;
        try {
            for (Map.Entry<String, String> flag : flags.entrySet()) {
                if (flag.getValue() != null) {
                    workload = workload.with(flag.getKey(), flag.getValue());
                }
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(mixee.commandLine(), e.getMessage());
        }
        try {
            return encryption ? workload.withEncryption(true) : workload;
        } catch (IllegalArgumentException e) {
            throw new ParameterException(mixee.commandLine(), e.getMessage());
        }
    }

    /** Whether {@code --stack} was given. */
    boolean stackGiven() {
        return stack != null;
    }
}
