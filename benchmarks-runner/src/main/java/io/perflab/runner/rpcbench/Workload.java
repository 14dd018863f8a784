package io.perflab.runner.rpcbench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.annotation.JsonSerialize;

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
 * @param serverWorkNanos CPU time the server's handler spins in user space per call before it answers
 *     ({@link ServerWork}), a known cost to inject; 0 (the default) for none
 *
 * <p>In JSON (stored experiments, the trial spec) the fields have the API's names, the warmup is
 * {@code warmupSeconds} and the window {@code runSeconds}. What users may set, and within which bounds, is
 * {@link WorkloadSettings}; a workload itself only refuses values no trial could run with.
 */
@JsonPropertyOrder({"stack", "mode", "clientThreads", "asyncConcurrency", "workerThreads", "serverReactors",
        "encryption", "requestBytes", "responseBytes", "warmupSeconds", "runSeconds", "serverWorkNanos"})
public record Workload(CallMode mode, int clientThreads, int asyncConcurrency, int workerThreads,
                       int serverReactors, boolean encryption, int requestBytes, int responseBytes,
                       @JsonProperty("warmupSeconds") Warmup warmup,
                       @JsonProperty("runSeconds") @JsonSerialize(using = Seconds.Writer.class)
                       @JsonDeserialize(using = Seconds.Reader.class) Duration run,
                       Stack stack,
                       @JsonInclude(JsonInclude.Include.NON_DEFAULT) @JsonSetter(nulls = Nulls.AS_EMPTY)
                       long serverWorkNanos) {

    public static final Workload DEFAULTS = new Workload(CallMode.SYNC, 16, 60, 1, 4, false, 0, 0,
            Warmup.auto(Duration.ofSeconds(20)), Duration.ofSeconds(5), Stack.PERFLAB, 0);

    /**
     * The defaults of a paired design's windows: 3 s windows after a warmup of at most 15 s. A pair's windows
     * alternate within seconds of each other, so the machine's drift cancels in each pair and a window need not be
     * long; this is the size whose false-positive rate docs/PERFORMANCE.md measured (22 A/A experiments of 5 pairs).
     */
    public static final Workload PAIRED_DEFAULTS = DEFAULTS.withWarmup(Warmup.auto(Duration.ofSeconds(15)))
            .withRun(Duration.ofSeconds(3));

    public Workload {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(warmup, "warmupSeconds");
        Objects.requireNonNull(run, "runSeconds");
        Objects.requireNonNull(stack, "stack");
        atLeast("clientThreads", clientThreads, 1);
        atLeast("asyncConcurrency", asyncConcurrency, 1);
        atLeast("workerThreads", workerThreads, 0);
        atLeast("serverReactors", serverReactors, 1);
        atLeast("requestBytes", requestBytes, 0);
        atLeast("responseBytes", responseBytes, 0);
        if (serverWorkNanos < 0) {
            throw new InvalidSettingException("serverWorkNanos", "must be ≥ 0, got " + serverWorkNanos);
        }
        if (run.isNegative() || run.isZero()) {
            throw new InvalidSettingException("runSeconds", "must be greater than 0, got " + Seconds.format(run));
        }
        if (encryption && stack != Stack.PERFLAB) {
            throw new InvalidSettingException("encryption", "is supported with the perflab stack only, got "
                    + stack.label());
        }
    }

    private static void atLeast(String field, int value, int min) {
        if (value < min) {
            throw new InvalidSettingException(field, "must be ≥ " + min + ", got " + value);
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
                requestBytes, responseBytes, warmup, run, value, serverWorkNanos);
    }

    public Workload withMode(CallMode value) {
        return new Workload(value, clientThreads, asyncConcurrency, workerThreads, serverReactors, encryption,
                requestBytes, responseBytes, warmup, run, stack, serverWorkNanos);
    }

    public Workload withClientThreads(int value) {
        return new Workload(mode, value, asyncConcurrency, workerThreads, serverReactors, encryption,
                requestBytes, responseBytes, warmup, run, stack, serverWorkNanos);
    }

    public Workload withAsyncConcurrency(int value) {
        return new Workload(mode, clientThreads, value, workerThreads, serverReactors, encryption,
                requestBytes, responseBytes, warmup, run, stack, serverWorkNanos);
    }

    public Workload withWorkerThreads(int value) {
        return new Workload(mode, clientThreads, asyncConcurrency, value, serverReactors, encryption,
                requestBytes, responseBytes, warmup, run, stack, serverWorkNanos);
    }

    public Workload withServerReactors(int value) {
        return new Workload(mode, clientThreads, asyncConcurrency, workerThreads, value, encryption,
                requestBytes, responseBytes, warmup, run, stack, serverWorkNanos);
    }

    public Workload withEncryption(boolean value) {
        return new Workload(mode, clientThreads, asyncConcurrency, workerThreads, serverReactors, value,
                requestBytes, responseBytes, warmup, run, stack, serverWorkNanos);
    }

    public Workload withPayload(int request, int response) {
        return new Workload(mode, clientThreads, asyncConcurrency, workerThreads, serverReactors, encryption,
                request, response, warmup, run, stack, serverWorkNanos);
    }

    public Workload withWarmup(Warmup value) {
        return new Workload(mode, clientThreads, asyncConcurrency, workerThreads, serverReactors, encryption,
                requestBytes, responseBytes, value, run, stack, serverWorkNanos);
    }

    public Workload withRun(Duration value) {
        return new Workload(mode, clientThreads, asyncConcurrency, workerThreads, serverReactors, encryption,
                requestBytes, responseBytes, warmup, value, stack, serverWorkNanos);
    }

    public Workload withServerWorkNanos(long value) {
        return new Workload(mode, clientThreads, asyncConcurrency, workerThreads, serverReactors, encryption,
                requestBytes, responseBytes, warmup, run, stack, value);
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
        d.put("runSeconds", Seconds.format(run));
        if (serverWorkNanos > 0) {
            d.put("serverWorkNanos", Long.toString(serverWorkNanos));
        }
        return d;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        describe().forEach((k, v) -> s.append(s.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return s.toString();
    }
}
