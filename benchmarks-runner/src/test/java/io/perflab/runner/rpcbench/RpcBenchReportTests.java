package io.perflab.runner.rpcbench;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.metering.ProcessMeter;
import io.perflab.runner.metering.ResourceUsage;
import java.time.Duration;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class RpcBenchReportTests {

    @Test
    void printsRpcBenchLinesThenPerfLabLines() {
        // the "Without patch" figures of rpc-bench in seeds/001, rebuilt as a window of 776 270 requests in 5 s
        long requests = 776_270;
        ResourceUsage usage = new ResourceUsage(Math.round(31.7217 * requests), Math.round(51.3626 * requests),
                Math.round(3.0 * requests), Math.round(0.46345 * requests));
        Histogram latency = new Histogram(60_000_000_000L, 3);
        latency.recordValueWithCount(95_000, requests);
        RpcBenchResult result = new RpcBenchResult(Workload.DEFAULTS.withRun(Duration.ofSeconds(5))
                .withWarmup(Warmup.fixed(Duration.ofSeconds(5))), Map.of("completion", "notification"), requests,
                new ProcessMeter.Window(5_000_000_000L, usage, ResourceUsage.ZERO, 123 * requests, 0, 0), latency,
                Duration.ofSeconds(5), true, 0, null, Double.NaN, 0);

        String report = RpcBenchReport.format(result);

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
