package io.perflab.runner.rpcbench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * rpc-bench's parameters, with its defaults: sync mode, 16 client threads, 60 outstanding async calls, 1 worker
 * thread, 4 server reactors, no encryption. Payload sizes of 0 call {@code Calculator.Add}; anything else calls
 * the echo method with payloads of those sizes.
 *
 * @param mode sync or async calls
 * @param clientThreads sync: threads each with one connection and one outstanding call; async: client reactors
 * @param asyncConcurrency outstanding calls in async mode
 * @param workerThreads the server's service pool (0: handlers run on the server reactors)
 * @param serverReactors the server's event loops
 * @param encryption TLS on the connections (the engine's {@code tls} option)
 * @param requestBytes echo request payload, bytes
 * @param responseBytes echo response payload, bytes
 * @param warmup the warmup before the measured window
 * @param run the length of the measured window
 * @param stack the RPC stack under load: PerfLab's engine (the default), gRPC-java or bare Netty
 */
public record Workload(CallMode mode, int clientThreads, int asyncConcurrency, int workerThreads,
                       int serverReactors, boolean encryption, int requestBytes, int responseBytes, Warmup warmup,
                       Duration run, Stack stack) {

    public static final Workload DEFAULTS = new Workload(CallMode.SYNC, 16, 60, 1, 4, false, 0, 0,
            Warmup.auto(Duration.ofSeconds(20)), Duration.ofSeconds(5), Stack.PERFLAB);

    public Workload {
        atLeast("--client-threads", clientThreads, 1);
        atLeast("--async-concurrency", asyncConcurrency, 1);
        atLeast("--worker-threads", workerThreads, 0);
        atLeast("--server-reactors", serverReactors, 1);
        atLeast("--request-bytes", requestBytes, 0);
        atLeast("--response-bytes", responseBytes, 0);
        if (run.isNegative() || run.isZero()) {
            throw new IllegalArgumentException("--run-seconds must be greater than 0, got "
                    + Durations.formatSeconds(run));
        }
        Objects.requireNonNull(stack, "stack");
        if (encryption && stack != Stack.PERFLAB) {
            throw new IllegalArgumentException("--encryption is supported with --stack perflab only, got --stack "
                    + stack.label());
        }
    }

    private static void atLeast(String flag, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(flag + " must be ≥ " + min + ", got " + value);
        }
    }

    /** Whether calls go to the echo method (a payload size is set) rather than {@code Calculator.Add}. */
    public boolean echo() {
        return requestBytes > 0 || responseBytes > 0;
    }

    /** The calls in flight at any time: one per client thread in sync mode, {@code asyncConcurrency} in async. */
    public int outstandingCalls() {
        return mode == CallMode.SYNC ? clientThreads : asyncConcurrency;
    }

    public Workload withStack(Stack value) {
        return new Workload(mode, clientThreads, asyncConcurrency, workerThreads, serverReactors, encryption,
                requestBytes, responseBytes, warmup, run, value);
    }

    public Workload withMode(CallMode value) {
        return new Workload(value, clientThreads, asyncConcurrency, workerThreads, serverReactors, encryption,
                requestBytes, responseBytes, warmup, run, stack);
    }

    public Workload withClientThreads(int value) {
        return new Workload(mode, value, asyncConcurrency, workerThreads, serverReactors, encryption,
                requestBytes, responseBytes, warmup, run, stack);
    }

    public Workload withAsyncConcurrency(int value) {
        return new Workload(mode, clientThreads, value, workerThreads, serverReactors, encryption,
                requestBytes, responseBytes, warmup, run, stack);
    }

    public Workload withWorkerThreads(int value) {
        return new Workload(mode, clientThreads, asyncConcurrency, value, serverReactors, encryption,
                requestBytes, responseBytes, warmup, run, stack);
    }

    public Workload withServerReactors(int value) {
        return new Workload(mode, clientThreads, asyncConcurrency, workerThreads, value, encryption,
                requestBytes, responseBytes, warmup, run, stack);
    }

    public Workload withEncryption(boolean value) {
        return new Workload(mode, clientThreads, asyncConcurrency, workerThreads, serverReactors, value,
                requestBytes, responseBytes, warmup, run, stack);
    }

    public Workload withPayload(int request, int response) {
        return new Workload(mode, clientThreads, asyncConcurrency, workerThreads, serverReactors, encryption,
                request, response, warmup, run, stack);
    }

    public Workload withWarmup(Warmup value) {
        return new Workload(mode, clientThreads, asyncConcurrency, workerThreads, serverReactors, encryption,
                requestBytes, responseBytes, value, run, stack);
    }

    public Workload withRun(Duration value) {
        return new Workload(mode, clientThreads, asyncConcurrency, workerThreads, serverReactors, encryption,
                requestBytes, responseBytes, warmup, value, stack);
    }

    /** The command-line flags that {@link #parseArguments} reads back, as {@code perflab bench} spells them. */
    public List<String> toArguments() {
        List<String> args = new ArrayList<>(List.of("--stack", stack.label(), "--mode", mode.label(),
                "--client-threads", Integer.toString(clientThreads),
                "--async-concurrency", Integer.toString(asyncConcurrency),
                "--worker-threads", Integer.toString(workerThreads),
                "--server-reactors", Integer.toString(serverReactors),
                "--request-bytes", Integer.toString(requestBytes),
                "--response-bytes", Integer.toString(responseBytes),
                "--warmup-seconds", warmup.toString(),
                "--run-seconds", Durations.formatSeconds(run)));
        if (encryption) {
            args.add("--encryption");
        }
        return args;
    }

    /**
     * Applies one workload flag to this workload.
     *
     * @param flag one of {@link #FLAGS}
     * @param value its value (ignored for {@code --encryption})
     * @throws IllegalArgumentException naming the flag when the value is not allowed
     */
    public Workload with(String flag, String value) {
        return switch (flag) {
            case "--stack" -> withStack(Stack.parse(value));
            case "--mode" -> withMode(CallMode.parse(value));
            case "--client-threads" -> withClientThreads(integer(flag, value));
            case "--async-concurrency" -> withAsyncConcurrency(integer(flag, value));
            case "--worker-threads" -> withWorkerThreads(integer(flag, value));
            case "--server-reactors" -> withServerReactors(integer(flag, value));
            case "--encryption" -> withEncryption(true);
            case "--request-bytes" -> withPayload(integer(flag, value), responseBytes);
            case "--response-bytes" -> withPayload(requestBytes, integer(flag, value));
            case "--warmup-seconds" -> withWarmup(Warmup.parse(value));
            case "--run-seconds" -> withRun(Durations.parseSeconds(flag, value));
            default -> throw new IllegalArgumentException("unknown workload flag " + flag + "; known: " + FLAGS);
        };
    }

    /** The workload flags; all take a value except {@code --encryption}. */
    public static final List<String> FLAGS = List.of("--stack", "--mode", "--client-threads", "--async-concurrency",
            "--worker-threads", "--server-reactors", "--encryption", "--request-bytes", "--response-bytes",
            "--warmup-seconds", "--run-seconds");

    private static int integer(String flag, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a whole number, got '" + value + "'");
        }
    }

    /** The workload as report entries, in rpc-bench's vocabulary. */
    public Map<String, String> describe() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("stack", stack.label());
        d.put("mode", mode.label());
        d.put("clientThreads", Integer.toString(clientThreads));
        if (mode == CallMode.ASYNC) {
            d.put("asyncConcurrency", Integer.toString(asyncConcurrency));
        }
        d.put("workerThreads", Integer.toString(workerThreads));
        d.put("serverReactors", Integer.toString(serverReactors));
        d.put("encryption", Boolean.toString(encryption));
        d.put("method", echo() ? "Echo" : "Calculator.Add");
        if (echo()) {
            d.put("requestBytes", Integer.toString(requestBytes));
            d.put("responseBytes", Integer.toString(responseBytes));
        }
        d.put("warmupSeconds", warmup.toString());
        d.put("runSeconds", Durations.formatSeconds(run));
        return d;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        describe().forEach((k, v) -> s.append(s.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return s.toString();
    }
}
