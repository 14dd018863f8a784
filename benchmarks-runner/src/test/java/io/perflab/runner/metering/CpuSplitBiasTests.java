package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CpuSplitBiasTests {

    @Test
    void sampledSplitOfAPureSpinIsUserAndOfASystemCallLoopLargelyKernel() {
        Optional<String> missing = CpuSampler.unavailableReason();
        assumeTrue(missing.isEmpty(), () -> "CPU-wide cpu-clock sampling is not allowed here (needs root, "
                + "CAP_PERFMON or kernel.perf_event_paranoid <= 0, and no seccomp filter on perf_event_open): "
                + missing.orElseThrow());
        CpuSplitBias study = new CpuSplitBias(new CpuSampler(CpuSampler.DEFAULT_RATE_HZ), Duration.ofSeconds(1));

        CpuSplitBias.Measurement spin = study.measure("spin", 0, CpuSplitBias::spin);
        CpuSplitBias.Measurement yield = study.measure("yield", Double.NaN, CpuSplitBias::yields);

        assertThat(spin.sampled().user() + spin.sampled().kernel()).as("samples of the spinning thread")
                .isGreaterThan(200);
        assertThat(1 - spin.sampledKernelShare()).as("user share of a pure spin").isGreaterThanOrEqualTo(0.98);
        // A Thread.yield() loop measured 55-57 % kernel on one 2-vCPU guest and 48 % on another: the user part
        // (the JVM's wrapper, the return path) depends on the host, so the bound only says "a large share".
        assertThat(yield.sampledKernelShare()).as("kernel share of a sched_yield loop").isGreaterThan(0.3);
    }

    @Test
    void tableShowsExpectedSampledAndTickSharesWithTheirErrors() {
        CpuSplitBias.Measurement getppid = new CpuSplitBias.Measurement("getppid", 1_000_000, 340_000_000,
                new ResourceUsage(238_000, 102_000, 0, 0), new CpuSampler.Counts(1_190, 510, 0, 0, 0, 0, 4999), 0.64);

        String table = CpuSplitBias.table(List.of(getppid), 250);

        // sampled: 510 of 1,700 = 30.00 %, se sqrt(0.3 × 0.7 / 1,700) = 1.11 points; tick: 85 ticks, se 4.97
        assertThat(table).contains("getppid", "0.34", "64.00 %", "30.00 ± 1.11 (1700)", "30.00 ± 4.97 (85)",
                "340.0");
    }

    @Test
    void badArgumentsExitTwoSayingWhatIsExpected() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);

        assertThat(CpuSplitBias.run(List.of("--seconds"), System.out, errStream)).isEqualTo(2);
        assertThat(CpuSplitBias.run(List.of("--seconds", "0"), System.out, errStream)).isEqualTo(2);
        assertThat(CpuSplitBias.run(List.of("--rounds", "3"), System.out, errStream)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--seconds needs a value",
                "--seconds must be greater than 0", "unknown argument '--rounds'", "expected --seconds S");
    }
}
