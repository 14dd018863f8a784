package io.perflab.runner.rpcbench;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.metering.CpuTimeAccounting;
import io.perflab.runner.metering.ProcessMeter;
import io.perflab.runner.metering.ResourceUsage;
import java.time.Duration;
import java.util.Map;
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
                "Window:           776270 requests in 5.000 s after 5.000 s of warmup\n",
                "cover the whole process, client and server threads as in rpc-bench, except the JIT's compiler threads");
        assertThat(report).doesNotContain("User/sys split");
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
                Duration.ofSeconds(5), true, 0, null, Double.NaN, 0,
                Map.of("warmup_evidence", "calls/s 155254 155254 155254 (spread 0.0 %)"));
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
