package io.perflab.runner.trial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.runner.rpcbench.CallMode;
import io.perflab.runner.rpcbench.Stack;
import io.perflab.runner.rpcbench.Warmup;
import io.perflab.runner.rpcbench.Workload;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TrialSpecTests {

    @Test
    void argumentsReadBackToTheSameSpec() {
        Workload workload = Workload.DEFAULTS.withMode(CallMode.ASYNC).withClientThreads(2).withAsyncConcurrency(8)
                .withWorkerThreads(3).withServerReactors(2).withEncryption(true).withPayload(100, 2000)
                .withWarmup(Warmup.auto(Duration.ofSeconds(12))).withRun(Duration.ofMillis(1500));
        TrialSpec spec = new TrialSpec(Map.of("completion", "monitor", "allocator", "unpooled"), workload);

        assertThat(TrialSpec.parseArguments(spec.toArguments())).isEqualTo(spec);
    }

    @Test
    void leftOutFlagsKeepRpcBenchDefaults() {
        TrialSpec spec = TrialSpec.parseArguments(List.of("--run-seconds=2", "--set", "tls=true"));

        assertThat(spec.workload()).isEqualTo(Workload.DEFAULTS.withRun(Duration.ofSeconds(2)));
        assertThat(spec.workload().mode()).isEqualTo(CallMode.SYNC);
        assertThat(spec.workload().clientThreads()).isEqualTo(16);
        assertThat(spec.workload().asyncConcurrency()).isEqualTo(60);
        assertThat(spec.workload().workerThreads()).isEqualTo(1);
        assertThat(spec.workload().serverReactors()).isEqualTo(4);
        assertThat(spec.engineOptions()).containsExactly(Map.entry("tls", "true"));
    }

    @Test
    void badArgumentsNameTheFlag() {
        assertThatThrownBy(() -> TrialSpec.parseArguments(List.of("--mode", "batch")))
                .hasMessage("--mode must be sync or async, got 'batch'");
        assertThatThrownBy(() -> TrialSpec.parseArguments(List.of("--run-seconds", "-1")))
                .hasMessage("--run-seconds must not be negative, got -1");
        assertThatThrownBy(() -> TrialSpec.parseArguments(List.of("--run-seconds", "0")))
                .hasMessage("--run-seconds must be greater than 0, got 0");
        assertThatThrownBy(() -> TrialSpec.parseArguments(List.of("--client-threads", "0")))
                .hasMessage("--client-threads must be ≥ 1, got 0");
        assertThatThrownBy(() -> TrialSpec.parseArguments(List.of("--warmup-seconds", "soon")))
                .hasMessage("--warmup-seconds must be a number of seconds ≥ 0, 'auto' or 'auto:MAX', got 'soon'");
        assertThatThrownBy(() -> TrialSpec.parseArguments(List.of("--set", "tls")))
                .hasMessage("--set takes name=value, got 'tls'");
        assertThatThrownBy(() -> TrialSpec.parseArguments(List.of("--threads", "3")))
                .hasMessageStartingWith("unknown trial argument '--threads'");
    }

    @Test
    void stackTravelsInTheArgumentsAndRefusesEngineOptions() {
        TrialSpec grpc = new TrialSpec(Map.of(), Workload.DEFAULTS.withStack(Stack.GRPC).withPayload(2048, 2048));

        assertThat(grpc.toArguments()).containsSequence("--stack", "grpc");
        assertThat(TrialSpec.parseArguments(grpc.toArguments())).isEqualTo(grpc);
        assertThat(TrialSpec.parseArguments(List.of("--mode", "async")).workload().stack()).isEqualTo(Stack.PERFLAB);
        assertThatThrownBy(() -> TrialSpec.parseArguments(List.of("--stack", "netty", "--set", "completion=monitor")))
                .hasMessage("--set sets engine options, which apply to --stack perflab only; got --set completion "
                        + "with --stack netty");
        assertThatThrownBy(() -> TrialSpec.parseArguments(List.of("--stack=zeromq")))
                .hasMessage("--stack must be perflab, grpc or netty, got 'zeromq'");
        assertThatThrownBy(() -> TrialSpec.parseArguments(List.of("--stack", "grpc", "--encryption")))
                .hasMessage("--encryption is supported with --stack perflab only, got --stack grpc");
    }

    @Test
    void warmupReadsFixedAndAutoForms() {
        assertThat(Warmup.parse("0.5")).isEqualTo(Warmup.fixed(Duration.ofMillis(500)));
        assertThat(Warmup.parse("auto")).isEqualTo(Warmup.auto(Warmup.DEFAULT_AUTO_MAX));
        assertThat(Warmup.parse("AUTO:20")).isEqualTo(Warmup.auto(Duration.ofSeconds(20)));
        assertThat(Warmup.auto(Duration.ofMillis(2500)).toString()).isEqualTo("auto:2.5");
    }

    @Test
    void resultLineIsFoundAmongLogLinesAndReadBack() {
        String line = TrialProtocol.encode(Map.of("reqs_per_sec", 155254.0), Map.of("host", "bench-1"));

        assertThat(line).startsWith(TrialProtocol.PREFIX);
        assertThat(TrialProtocol.decode("12:00:01 INFO started")).isEmpty();
        TrialProtocol.Report report = TrialProtocol.decode(line).orElseThrow();
        assertThat(report.metrics()).containsEntry("reqs_per_sec", 155254.0);
        assertThat(report.environment()).containsEntry("host", "bench-1");
        assertThatThrownBy(() -> TrialProtocol.decode(TrialProtocol.PREFIX + "{\"metrics\":"))
                .hasMessageStartingWith("malformed trial result: unexpected end of JSON");
    }

    @Test
    void trialResultJsonRoundTrips() {
        TrialResult result = new TrialResult("with", 3, TrialStatus.FAILED, Instant.parse("2025-05-01T10:00:00Z"),
                Instant.parse("2025-05-01T10:00:07.5Z"), 4242, Map.of("gc_count", 1.0), Map.of("host", "h"),
                "exited with status 1");

        assertThat(TrialResult.fromJson(result.toJson())).isEqualTo(result);
        assertThat(result.toJson().keySet()).containsExactly("variant", "ordinal", "status", "pid", "start", "end",
                "metrics", "environment", "error");
    }
}
