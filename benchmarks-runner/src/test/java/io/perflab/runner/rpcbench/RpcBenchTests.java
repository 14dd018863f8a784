package io.perflab.runner.rpcbench;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.trial.MetricKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Short real runs of the bench: every metric is produced, in both modes. */
class RpcBenchTests {

    private static final Workload SHORT = Workload.DEFAULTS.withClientThreads(2).withAsyncConcurrency(4)
            .withServerReactors(1).withWarmup(Warmup.fixed(Duration.ofMillis(200))).withRun(Duration.ofMillis(500));

    @Test
    void syncModeProducesEveryMetricOfTheWindow() {
        RpcBenchResult result = RpcBench.of(EngineOptions.defaults(), SHORT).run();

        Map<String, Double> metrics = result.metrics();
        assertEngineMetricsAndKernelMeter(result);
        assertThat(result.requests()).isPositive();
        assertThat(result.failedCalls()).isZero();
        assertThat(result.window().elapsedNanos()).isBetween(500_000_000L, 700_000_000L);
        assertThat(metrics.get(MetricKeys.REQS_PER_SEC)).isPositive();
        assertThat(metrics.get(MetricKeys.CPU_US_PER_REQ)).isPositive()
                .isEqualTo(metrics.get(MetricKeys.USER_CPU_US_PER_REQ) + metrics.get(MetricKeys.SYS_CPU_US_PER_REQ),
                        org.assertj.core.data.Offset.offset(1e-9));
        // a sync call parks the caller at least once per request unless the answer is already there
        assertThat(metrics.get(MetricKeys.VOLUNTARY_CTX_SWITCHES_PER_REQ)).isPositive();
        assertThat(metrics.get(MetricKeys.LATENCY_P99_US)).isGreaterThanOrEqualTo(metrics.get(MetricKeys.LATENCY_P50_US));
        assertThat(Double.parseDouble(result.environment().get("warmup_seconds"))).isBetween(0.2, 1.0);
        assertThat(result.environment()).containsKeys("engine_options", "workload", "requests", "jit_ms_in_window");
    }

    /**
     * Every engine metric, {@code syscalls_per_req} exactly where system calls were counted, and the source of the
     * user/system split recorded either way.
     */
    static void assertEngineMetricsAndKernelMeter(RpcBenchResult result) {
        Map<String, Double> metrics = result.metrics();
        Map<String, String> env = result.environment();
        List<String> all = new ArrayList<>(MetricKeys.ENGINE);
        all.addAll(MetricKeys.ENGINE_WHERE_TRACED);
        assertThat(metrics).containsKeys(MetricKeys.ENGINE.toArray(String[]::new));
        assertThat(metrics.keySet()).isSubsetOf(all);
        assertThat(metrics.containsKey(MetricKeys.SYSCALLS_PER_REQ))
                .as("syscalls_per_req, or why not: %s", env.get(RpcBenchResult.SYSCALLS_NOT_COUNTED))
                .isNotEqualTo(env.containsKey(RpcBenchResult.SYSCALLS_NOT_COUNTED));
        if (metrics.containsKey(MetricKeys.SYSCALLS_PER_REQ)) {
            // calls cross loopback; in async mode one write or read may carry many of them
            assertThat(metrics.get(MetricKeys.SYSCALLS_PER_REQ)).isPositive();
        }
        assertThat(metrics.get(MetricKeys.PAGE_FAULTS_PER_REQ)).isNotNegative();
        assertThat(env.get(RpcBenchResult.CPU_SPLIT_SOURCE)).isIn("sampled", "tick");
        if (env.get(RpcBenchResult.CPU_SPLIT_SOURCE).equals("sampled")) {
            assertThat(Long.parseLong(env.get(RpcBenchResult.CPU_SPLIT_SAMPLES))).isPositive();
            assertThat(env).containsKeys(RpcBenchResult.TICK_USER_CPU_US_PER_REQ, RpcBenchResult.USER_SAMPLING_ERROR);
        } else {
            assertThat(env).containsKey(RpcBenchResult.CPU_SPLIT_REASON);
        }
    }

    @Test
    void asyncModeWithEchoPayloadsAndAutoWarmupCap() {
        Workload workload = SHORT.withMode(CallMode.ASYNC).withPayload(64, 1024)
                .withWarmup(Warmup.auto(Duration.ofMillis(300)));

        RpcBenchResult result = RpcBench.of(EngineOptions.defaults().withOption("completion", "monitor"), workload)
                .run();

        assertThat(result.requests()).isPositive();
        assertThat(result.failedCalls()).isZero();
        assertThat(result.warmupSettled()).isFalse();
        assertThat(result.environment()).containsEntry("warmup_settled", "false");
        assertThat(result.environment().get("engine_options")).contains("completion=monitor");
        assertThat(result.environment().get("workload")).contains("mode=async", "asyncConcurrency=4", "method=Echo");
        assertThat(RpcBenchReport.format(result)).contains("Mode:            Async", "Call concurrency: 4",
                "did not settle within 0.3 s");
    }
}
