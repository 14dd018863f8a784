package io.perflab.runner.rpcbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.rpc.EngineOptions;
import io.perflab.rpc.ServerConfig;
import io.perflab.runner.trial.MetricKeys;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** Short real runs of every stack under the same bench: calls complete in both modes and with payloads. */
class StackTests {

    private static final Workload SHORT = Workload.DEFAULTS.withClientThreads(2).withAsyncConcurrency(6)
            .withServerReactors(2).withWarmup(Warmup.fixed(Duration.ofMillis(300))).withRun(Duration.ofMillis(500));

    @ParameterizedTest
    @EnumSource(Stack.class)
    void syncCallsCompleteWithoutFailures(Stack stack) {
        RpcBenchResult result = RpcBench.of(EngineOptions.defaults(), SHORT.withStack(stack)).run();

        assertCompleted(result);
        // a sync call parks the caller while the answer travels, whatever the stack
        assertThat(result.metrics().get(MetricKeys.VOLUNTARY_CTX_SWITCHES_PER_REQ)).isPositive();
        assertThat(result.environment()).containsEntry("stack", stack.label());
        assertThat(result.environment().get("workload")).startsWith("stack=" + stack.label() + " mode=sync");
        assertThat(RpcBenchReport.format(result)).contains("Stack:            " + stack.label());
    }

    @ParameterizedTest
    @EnumSource(Stack.class)
    void asyncCallChainsCompleteWithoutFailures(Stack stack) {
        RpcBenchResult result = RpcBench.of(EngineOptions.defaults(), SHORT.withStack(stack).withMode(CallMode.ASYNC))
                .run();

        assertCompleted(result);
        assertThat(result.environment().get("workload")).contains("mode=async", "asyncConcurrency=6");
    }

    @ParameterizedTest
    @EnumSource(Stack.class)
    void echoOf2KiBPayloadsCompletes(Stack stack) {
        RpcBenchResult result = RpcBench.of(EngineOptions.defaults(),
                SHORT.withStack(stack).withPayload(2048, 2048)).run();

        assertCompleted(result);
        assertThat(result.environment().get("workload")).contains("method=Echo", "requestBytes=2048");
        // each call carries at least its 2 KiB response into a fresh array or buffer somewhere
        assertThat(result.metrics().get(MetricKeys.ALLOC_BYTES_PER_REQ)).isPositive();
    }

    /**
     * 300 µs of spinning per call is more than a warm call costs on loopback (30–80 µs), so every call's CPU time
     * must hold it; a stack still interpreted after so short a warmup (gRPC) costs more besides.
     */
    @ParameterizedTest
    @EnumSource(Stack.class)
    void injectedServerWorkAddsItsCpuTimeToEveryCall(Stack stack) {
        long injected = 300_000;
        RpcBenchResult result = RpcBench.of(EngineOptions.defaults(),
                SHORT.withStack(stack).withServerWorkNanos(injected)).run();

        assertCompleted(result);
        assertThat(result.metrics().get(MetricKeys.CPU_US_PER_REQ)).isGreaterThan(0.9 * injected / 1e3);
        assertThat(result.environment()).containsEntry("server_work_nanos", "300000")
                .containsKey("server_work_calibration");
        // at 300 µs a call, the 0.5 s window's calls that timed themselves show what the spin cost in it
        assertThat(Long.parseLong(result.environment().get(RpcBenchResult.SERVER_WORK_TIMED_CALLS))).isPositive();
        assertThat(Double.parseDouble(result.environment().get(RpcBenchResult.SERVER_WORK_MEASURED_NANOS)))
                .isBetween(0.5 * injected, 2.0 * injected);
        assertThat(result.environment().get("workload")).contains("serverWorkNanos=300000");
    }

    @Test
    void grpcCarriesTheLargestPayloadsAWorkloadMayAskFor() throws CallFailedException {
        int largest = WorkloadSettings.MAX_PAYLOAD_BYTES;
        try (GrpcStack stack = new GrpcStack(Workload.DEFAULTS.withStack(Stack.GRPC).withPayload(largest, largest))) {
            RpcStack.Connection connection = stack.connect(0); // which makes one call

            connection.call(1);
        }
    }

    @Test
    void aFailedEngineCallSaysItsStatusOnce() {
        Workload tooLarge = Workload.DEFAULTS.withPayload(0, ServerConfig.DEFAULT_MAX_FRAME_BYTES);
        try (PerfLabStack stack = new PerfLabStack(EngineOptions.defaults(), tooLarge)) {
            RpcStack.Connection connection = stack.connect(0);

            assertThatThrownBy(() -> connection.call(1)).isInstanceOf(CallFailedException.class)
                    .hasMessageStartingWith("INVALID_REQUEST: Calculator.Echo responseBytes 67108864 exceeds 67108859");
        }
    }

    @Test
    void engineOptionsAreRecordedForTheEngineOnly() {
        RpcBenchResult grpc = RpcBench.of(EngineOptions.defaults(), SHORT.withStack(Stack.GRPC)).run();

        assertThat(grpc.environment()).doesNotContainKey("engine_options");
        assertThat(RpcBenchReport.format(grpc)).doesNotContain("Engine options:");
    }

    @Test
    void parsesStackLabelsAndNamesTheAllowedOnes() {
        assertThat(Stack.parse(" GRPC ")).isEqualTo(Stack.GRPC);
        assertThatThrownBy(() -> Stack.parse("thrift"))
                .hasMessage("must be perflab, grpc or netty, got 'thrift'");
    }

    @Test
    void encryptionIsTheEngineOnly() {
        assertThatThrownBy(() -> Workload.DEFAULTS.withEncryption(true).withStack(Stack.GRPC))
                .hasMessage("encryption: is supported with the perflab stack only, got grpc");
        assertThat(Workload.DEFAULTS.withEncryption(true).stack()).isEqualTo(Stack.PERFLAB);
    }

    private static void assertCompleted(RpcBenchResult result) {
        Map<String, Double> metrics = result.metrics();
        assertThat(result.firstError()).isNull();
        assertThat(result.failedCalls()).isZero();
        assertThat(result.requests()).isPositive();
        RpcBenchTests.assertEngineMetricsAndKernelMeter(result);
        assertThat(metrics.get(MetricKeys.REQS_PER_SEC)).isPositive();
        assertThat(metrics.get(MetricKeys.CPU_US_PER_REQ)).isPositive();
        assertThat(metrics.get(MetricKeys.LATENCY_P50_US)).isPositive();
        assertThat(metrics.get(MetricKeys.LATENCY_P99_US))
                .isGreaterThanOrEqualTo(metrics.get(MetricKeys.LATENCY_P50_US));
    }
}
