package io.perflab.runner.rpcbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.metering.ProcessMeter;
import io.perflab.runner.metering.ResourceUsage;
import io.perflab.runner.trial.MetricKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
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
        // the window lasts at least the run; how much longer depends on the machine, so only its figures are checked
        assertThat(result.window().elapsedNanos()).isGreaterThanOrEqualTo(500_000_000L);
        assertThat(metrics.get(MetricKeys.REQS_PER_SEC))
                .isCloseTo(result.requests() / (result.window().elapsedNanos() / 1e9), withinPercentage(1e-6));
        assertThat(metrics.get(MetricKeys.CPU_US_PER_REQ)).isPositive()
                .isEqualTo(metrics.get(MetricKeys.USER_CPU_US_PER_REQ) + metrics.get(MetricKeys.SYS_CPU_US_PER_REQ),
                        org.assertj.core.data.Offset.offset(1e-9));
        // a sync call parks the caller at least once per request unless the answer is already there
        assertThat(metrics.get(MetricKeys.VOLUNTARY_CTX_SWITCHES_PER_REQ)).isPositive();
        assertThat(metrics.get(MetricKeys.LATENCY_P99_US))
                .isGreaterThanOrEqualTo(metrics.get(MetricKeys.LATENCY_P50_US));
        assertThat(Double.parseDouble(result.environment().get("warmup_seconds"))).isGreaterThanOrEqualTo(0.2);
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

    /**
     * The first window used to be the meter's first use: loading its native library took seconds on a busy CPU, the
     * calls that completed meanwhile were counted and their CPU time was not, and the first window measured about
     * a quarter less CPU per call than the next. With one client thread calls run back to back, so the calls
     * counted times their mean latency must fill the window's span, however long the meter takes to read.
     */
    @Test
    void countsTheCallsOfTheSpanWhoseCpuTimeTheWindowHoldsEvenWhenTheMeterIsSlow() {
        long slowRead = TimeUnit.MILLISECONDS.toNanos(500);
        ProcessMeter slowMeter = new ProcessMeter(System::nanoTime, () -> {
            LockSupport.parkNanos(slowRead);
            return ResourceUsage.self();
        }, () -> 0L, () -> new ProcessMeter.GcTotals(0, 0));
        Workload oneClient = SHORT.withClientThreads(1).withRun(Duration.ofMillis(300));

        RpcBenchResult result = new RpcBench(EngineOptions.defaults(), oneClient, slowMeter, System::nanoTime,
                line -> { }).run();

        double callTime = result.requests() * result.latencyNanos().getMean();
        // a count that began before the start snapshot would fill (0.5 + 0.3 + 0.5) / 0.8 = 1.6 spans
        assertThat(callTime / result.window().elapsedNanos()).isBetween(0.6, 1.2);
    }

    /**
     * A fixed warmup of 2 s was recorded as 2.57 to 4.56 s: the meter's first reading (its native library loads
     * there; seconds on a busy CPU) was counted in it. It is the warmup's setup, recorded apart, and the warmup's
     * seconds start where it ends.
     */
    @Test
    void aFixedWarmupRecordsItsTimeApartFromTheMetersSlowFirstReading() {
        long slowFirstRead = TimeUnit.MILLISECONDS.toNanos(800);
        AtomicInteger reads = new AtomicInteger();
        ProcessMeter slowFirst = new ProcessMeter(System::nanoTime, () -> {
            if (reads.getAndIncrement() == 0) {
                LockSupport.parkNanos(slowFirstRead);
            }
            return ResourceUsage.self();
        }, () -> 0L, () -> new ProcessMeter.GcTotals(0, 0));
        Workload workload = SHORT.withWarmup(Warmup.fixed(Duration.ofMillis(1000)));

        RpcBenchResult result = new RpcBench(EngineOptions.defaults(), workload, slowFirst, System::nanoTime,
                line -> { }).run();

        Map<String, String> env = result.environment();
        assertThat(Double.parseDouble(env.get("warmup_setup_seconds"))).isGreaterThanOrEqualTo(0.8);
        assertThat(Double.parseDouble(env.get("warmup_seconds"))).isBetween(1.0, 1.7);
        assertThat(env).doesNotContainKey("warmup_settled");
        assertThat(result.warmupSettled()).isFalse();
        assertThat(RpcBenchReport.format(result)).contains(" s of warmup (fixed: 1 s), after ");
    }

    @Test
    void theWarmupMetersEachSecondAndRecordsItsLastFiguresAsEvidence() {
        List<Long> reads = new CopyOnWriteArrayList<>();
        ProcessMeter counting = new ProcessMeter(System::nanoTime, () -> {
            reads.add(System.nanoTime());
            return ResourceUsage.self();
        }, () -> 0L, () -> new ProcessMeter.GcTotals(0, 0));
        Workload workload = SHORT.withWarmup(Warmup.fixed(Duration.ofMillis(2100)));

        RpcBenchResult result = new RpcBench(EngineOptions.defaults(), workload, counting, System::nanoTime,
                line -> { }).run();

        // at the warmup's start, after each of its two full seconds and at its end; then the window's two
        assertThat(reads).hasSize(6);
        assertThat(reads.get(4) - reads.get(0)).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(2100));
        assertThat(result.environment().get("warmup_evidence")).matches(
                "calls/s \\d+ \\d+ \\(spread [0-9.]+ %\\); CPU µs/call [0-9.]+ [0-9.]+ \\(spread [0-9.]+ %\\); "
                        + "JIT \\d+ ms in the last second");
    }
}
