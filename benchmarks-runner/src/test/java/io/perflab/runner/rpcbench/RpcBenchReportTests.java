package io.perflab.runner.rpcbench;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.within;

import io.perflab.runner.metering.CpuSplit;
import io.perflab.runner.metering.CpuTimeAccounting;
import io.perflab.runner.metering.KernelWindow;
import io.perflab.runner.metering.ProcessMeter;
import io.perflab.runner.metering.ResourceUsage;
import io.perflab.runner.trial.MetricKeys;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class RpcBenchReportTests {

    @Test
    void printsRpcBenchLinesThenPerfLabLines() {
        RpcBenchResult result = seedResult();

        String report = RpcBenchReport.format(result, CpuTimeAccounting.UNKNOWN);

        assertThat(report).startsWith("""
                Mode:            Sync
                Client threads:  16
                Worker threads:  1
                Server reactors: 4
                Encryption:      0
                ----------------------------------
                Reqs/sec:         155254
                User CPU per req: 31.7217us
                Sys CPU per req:  51.3626us
                Ctx Sw. per req:  3.46345
                ----------------------------------
                """);
        assertThat(report).contains("Alloc per req:    123 B\n", "Latency p50:      95.039us\n",
                "GC:               0 collections, 0 ms\n",
                "Window:           776270 requests in 5.000 s after 5.000 s of warmup (fixed: 5 s), after 0.412 s "
                        + "of setup\n",
                "cover the whole process, client and server threads as in rpc-bench, except the JIT's compiler "
                        + "threads");
        assertThat(report).contains("Syscalls per req: not counted (not metered)\n", "Page faults per req: 0\n",
                "User/sys split:   getrusage's (unknown) (cpu_split_source=tick; no cpu-clock samples: not metered)\n");
        assertThat(result.environment(CpuTimeAccounting.UNKNOWN)).containsEntry("cpu_time_accounting", "unknown")
                .doesNotContainKey(RpcBenchResult.USER_SAMPLING_ERROR);
    }

    @Test
    void tickSampledSplitIsReportedWithItsSamplingError() {
        // 64.5 s of CPU in the window at 250 Hz: 16,124 ticks, 38.2 % of them in user mode
        RpcBenchResult result = seedResult();
        CpuTimeAccounting tick = new CpuTimeAccounting(CpuTimeAccounting.Kind.TICK, 250);

        assertThat(result.environment(tick)).containsEntry("cpu_time_accounting", "tick 250 Hz")
                .containsEntry(RpcBenchResult.USER_SAMPLING_ERROR, "1.00")
                .containsEntry(RpcBenchResult.SYS_SAMPLING_ERROR, "0.62");
        assertThat(RpcBenchReport.format(result, tick)).contains("User/sys split:   sampled by the kernel at each "
                + "timer tick (tick 250 Hz): ±1.00 % on user CPU and ±0.62 % on system CPU in this window");
        assertThat(result.environment(tick)).containsEntry(RpcBenchResult.CPU_SPLIT_SOURCE, "tick")
                .containsEntry(RpcBenchResult.CPU_SPLIT_REASON, "not metered")
                .containsEntry(RpcBenchResult.SYSCALLS_NOT_COUNTED, "not metered")
                .containsEntry(RpcBenchResult.HARDWARE_NOT_COUNTED, "not metered");
        assertThat(result.metrics()).doesNotContainKeys(MetricKeys.INSTRUCTIONS_PER_REQ, MetricKeys.CYCLES_PER_REQ);
        assertThat(RpcBenchReport.format(result, tick)).contains("Instructions / cycles per req: not counted (not "
                + "metered)\n");
    }

    @Test
    void sampledSplitDividesTheExactTotalAndCarriesItsBinomialError() {
        // 40,000 samples, 25 % in user mode: user ± sqrt(0.75 / (0.25 × 40,000)) = ±0.866 %, sys ±0.289 %
        RpcBenchResult tickSplit = seedResult();
        KernelWindow kernel = new KernelWindow(new CpuSplit(CpuSplit.Source.SAMPLED, 10_000, 30_000, 4999, 0, 0,
                null), OptionalLong.of(6_986_430), null, OptionalLong.of(776_270L * 250_000),
                OptionalLong.of(776_270L * 400_000), null);
        RpcBenchResult result = withKernel(tickSplit, kernel);
        CpuTimeAccounting tick = new CpuTimeAccounting(CpuTimeAccounting.Kind.TICK, 250);

        Map<String, Double> metrics = result.metrics();
        assertThat(metrics.get(MetricKeys.CPU_US_PER_REQ))
                .isEqualTo(tickSplit.metrics().get(MetricKeys.CPU_US_PER_REQ));
        assertThat(metrics.get(MetricKeys.USER_CPU_US_PER_REQ)).isCloseTo((31.7217 + 51.3626) / 4, within(1e-5));
        assertThat(metrics.get(MetricKeys.SYSCALLS_PER_REQ)).isCloseTo(9.0, within(1e-9));
        assertThat(metrics.get(MetricKeys.INSTRUCTIONS_PER_REQ)).isCloseTo(250_000, within(1e-9));
        assertThat(metrics.get(MetricKeys.CYCLES_PER_REQ)).isCloseTo(400_000, within(1e-9));
        assertThat(result.environment(tick)).containsEntry(RpcBenchResult.CPU_SPLIT_SOURCE, "sampled")
                .containsEntry(RpcBenchResult.CPU_SPLIT_SAMPLES, "40000")
                .containsEntry(RpcBenchResult.CPU_SPLIT_USER_SAMPLES, "10000")
                .containsEntry(RpcBenchResult.CPU_SPLIT_RATE_HZ, "4999")
                .containsEntry(RpcBenchResult.USER_SAMPLING_ERROR, "0.87")
                .containsEntry(RpcBenchResult.SYS_SAMPLING_ERROR, "0.29")
                .containsEntry(RpcBenchResult.TICK_USER_CPU_US_PER_REQ, "31.7217")
                .doesNotContainKeys(RpcBenchResult.CPU_SPLIT_REASON, RpcBenchResult.SYSCALLS_NOT_COUNTED,
                        RpcBenchResult.CPU_SPLIT_LOST_SAMPLES, RpcBenchResult.HARDWARE_NOT_COUNTED);
        assertThat(RpcBenchReport.format(result, tick)).contains("Syscalls per req: 9\n",
                "Instructions / cycles per req: 250000 / 400000\n", "User/sys split:   sampled "
                + "with cpu-clock at 4999 Hz on each CPU (cpu_split_source=sampled): 40000 samples, 25.0 % in user "
                + "mode: ±0.87 % on user CPU and ±0.29 % on system CPU in this window from sampling alone; their sum "
                + "is exact (getrusage's tick split: user 31.7217us, sys 51.3626us)\n");
    }

    /** The window's evidence shows how much of its samples the split could not judge, and says they were left out. */
    @Test
    void samplesOfThreadsThatCouldNotBeNamedAreShownBesideTheSplit() {
        // 1,000 of 41,000 samples of the process: 2.44 %
        KernelWindow kernel = new KernelWindow(new CpuSplit(CpuSplit.Source.SAMPLED, 10_000, 30_000, 4999, 0, 1_000,
                null), OptionalLong.empty(), "not counted", OptionalLong.empty(), OptionalLong.empty(),
                "not counted");
        RpcBenchResult result = withKernel(seedResult(), kernel);
        CpuTimeAccounting tick = new CpuTimeAccounting(CpuTimeAccounting.Kind.TICK, 250);

        assertThat(result.environment(tick)).containsEntry(RpcBenchResult.CPU_SPLIT_UNNAMED_SAMPLES, "1000")
                .containsEntry(RpcBenchResult.CPU_SPLIT_UNNAMED_PERCENT, "2.44")
                .containsEntry(RpcBenchResult.CPU_SPLIT_SAMPLES, "40000");
        assertThat(RpcBenchReport.format(result, tick)).contains("from sampling alone; their sum is exact; 1000 "
                + "samples (2.44 %) of threads that ended before they could be named, left out (getrusage's tick");
        assertThat(seedResult().environment(tick)).doesNotContainKeys(RpcBenchResult.CPU_SPLIT_UNNAMED_SAMPLES,
                RpcBenchResult.CPU_SPLIT_UNNAMED_PERCENT);
    }

    private static RpcBenchResult withKernel(RpcBenchResult r, KernelWindow kernel) {
        return new RpcBenchResult(r.workload(), r.engineOptions(), r.requests(), r.window(), r.latencyNanos(),
                r.warmupUsed(), r.warmupSettled(), r.failedCalls(), r.firstError(), r.othersCpuPercent(),
                r.jitMillisInWindow(), kernel, r.setup(), r.serverWork());
    }

    /** The "Without patch" figures of rpc-bench in seeds/001, rebuilt as a window of 776 270 requests in 5 s. */
    private static RpcBenchResult seedResult() {
        long requests = 776_270;
        ResourceUsage usage = new ResourceUsage(Math.round(31.7217 * requests), Math.round(51.3626 * requests),
                Math.round(3.0 * requests), Math.round(0.46345 * requests));
        Histogram latency = new Histogram(60_000_000_000L, 3);
        latency.recordValueWithCount(95_000, requests);
        return new RpcBenchResult(Workload.DEFAULTS.withRun(Duration.ofSeconds(5))
                .withWarmup(Warmup.fixed(Duration.ofSeconds(5))), Map.of("completion", "notification"), requests,
                new ProcessMeter.Window(5_000_000_000L, usage, ResourceUsage.ZERO, 123 * requests, 0, 0), latency,
                Duration.ofSeconds(5), false, 0, null, Double.NaN, 0, KernelWindow.NOT_METERED,
                Map.of("warmup_evidence", "calls/s 155254 155254 155254 (spread 0.0 %)",
                        WarmupOutcome.SETUP_SECONDS, "0.412"), ServerWork.Timing.NONE);
    }

    @Test
    void formatsNumbersAsCppStreamsDo() {
        assertThat(RpcBenchReport.sixDigits(155254.3)).isEqualTo("155254");
        assertThat(RpcBenchReport.sixDigits(3.4634549)).isEqualTo("3.46345");
        assertThat(RpcBenchReport.sixDigits(0.5)).isEqualTo("0.5");
        assertThat(RpcBenchReport.sixDigits(0)).isEqualTo("0");
        assertThat(RpcBenchReport.sixDigits(1234567.0)).isEqualTo("1.23457e+06");
    }
}
