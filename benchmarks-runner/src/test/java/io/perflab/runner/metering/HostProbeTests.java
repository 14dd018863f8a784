package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.perflab.runner.trial.MetricKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostProbeTests {

    /** The first CPU this process may run on: the one the probe is pinned to. */
    private static int firstAllowedCpu() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return Integer.parseInt(line.substring(line.indexOf(':') + 1).trim().split("[-,]")[0]);
            }
        }
        throw new IllegalStateException("no Cpus_allowed_list in /proc/self/status");
    }

    @Test
    void aWindowGetsAFigureFromTheSamplesTakenInsideItOnTheCpusAsked() throws Exception {
        int cpu = firstAllowedCpu();
        try (HostProbe probe = HostProbe.start(List.of(cpu))) {
            long from = System.nanoTime();
            Thread.sleep(400);
            long to = System.nanoTime();
            // a sample taken inside the window may be stored a moment after it: let every one of them be stored,
            // so that the reads below see the same samples (1780.9 then 1781.9 once, on a busy machine)
            Thread.sleep(100);

            double speed = probe.speedNanos(from, to, null);
            assertThat(speed).as("ns per 1,000 steps of the loop").isGreaterThan(100).isLessThan(1_000_000);
            assertThat(probe.syscallNanos(from, to, null)).as("ns per lseek on /dev/null").isGreaterThan(10)
                    .isLessThan(1_000_000);
            assertThat(probe.speedNanos(from, to, List.of(cpu))).isEqualTo(speed);
            assertThat(probe.speedNanos(from, to, List.of(cpu + 1))).as("a CPU not probed").isNaN();
            assertThat(probe.speedNanos(to + 1_000_000_000L, to + 2_000_000_000L, null)).as("no sample yet")
                    .isNaN();
            assertThat(probe.speedNanos(from, from + 30_000_000L, null)).as("three samples at most: too few")
                    .isNaN();
            assertThat(probe.pinned()).as("sched_setaffinity to an allowed CPU on Linux").isTrue();
        }
    }

    @Test
    void theFiguresAreTheLoopsQuartileAndTheSystemCallsTenthPercentileInterpolatedAsRsQuantile() {
        // R: quantile(1:10, 0.1) = 1.9; quantile(c(5), 0.1) = 5; quantile(c(1, 2, 4), 0.1) = 1.2
        assertThat(HostProbe.QUANTILE).isEqualTo(0.25);
        assertThat(HostProbe.SYSCALL_QUANTILE).isEqualTo(0.10);
        assertThat(HostProbe.quantile(new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.25)).isCloseTo(3.25,
                within(1e-12));
        assertThat(HostProbe.quantile(new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.1)).isCloseTo(1.9,
                within(1e-12));
        assertThat(HostProbe.quantile(new double[] {5}, 0.1)).isEqualTo(5);
        assertThat(HostProbe.quantile(new double[] {1, 2, 4}, 0.1)).isCloseTo(1.2, within(1e-12));
        assertThat(HostProbe.quantile(new double[] {1, 2, 4}, 1.0)).isEqualTo(4);
    }

    @Test
    void closingStopsTheSamplers() throws InterruptedException {
        HostProbe probe = HostProbe.start(List.of(0));
        Thread.sleep(50);
        probe.close();
        long after = System.nanoTime();
        Thread.sleep(200);
        assertThat(probe.speedNanos(after, System.nanoTime(), null)).isNaN();
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("perflab-host-probe"));
    }

    @Test
    void timeBasedMetricsAreScaledToTheHostsSpeedAndCountsAreLeftAlone() {
        Map<String, Double> metrics = Map.of(MetricKeys.CPU_US_PER_REQ, 40.0, MetricKeys.USER_CPU_US_PER_REQ, 10.0,
                MetricKeys.SYS_CPU_US_PER_REQ, 30.0, MetricKeys.REQS_PER_SEC, 50_000.0,
                MetricKeys.CTX_SWITCHES_PER_REQ, 4.0);

        Map<String, Double> adjusted = MetricKeys.withHostSpeed(metrics, 400);

        assertThat(adjusted.get(MetricKeys.HOST_PROBE_NS)).isEqualTo(400);
        assertThat(adjusted.get(MetricKeys.CPU_US_PER_REQ_ADJ)).isCloseTo(100, within(1e-12));
        assertThat(adjusted.get(MetricKeys.USER_CPU_US_PER_REQ_ADJ)).isCloseTo(25, within(1e-12));
        assertThat(adjusted.get(MetricKeys.SYS_CPU_US_PER_REQ_ADJ)).isCloseTo(75, within(1e-12));
        assertThat(adjusted.get(MetricKeys.REQS_PER_SEC_ADJ)).as("a slower host: more requests per unit of it")
                .isCloseTo(20_000, within(1e-9));
        assertThat(adjusted).containsAllEntriesOf(metrics).hasSize(metrics.size() + 5);
        assertThat(MetricKeys.lowerIsBetter(MetricKeys.REQS_PER_SEC_ADJ)).isFalse();
        assertThat(MetricKeys.lowerIsBetter(MetricKeys.CPU_US_PER_REQ_ADJ)).isTrue();
        assertThat(MetricKeys.withHostSpeed(metrics, Double.NaN)).isSameAs(metrics);
        assertThat(MetricKeys.withHostSpeed(metrics, 0)).isSameAs(metrics);
        assertThat(MetricKeys.withHostSpeed(Map.of(MetricKeys.WALL_MS, 5.0), 400))
                .containsOnlyKeys(MetricKeys.WALL_MS, MetricKeys.HOST_PROBE_NS);
    }

    @Test
    void theSystemCallsFigureIsKeptBesideTheSpeedAndScalesNothing() {
        Map<String, Double> metrics = Map.of(MetricKeys.CPU_US_PER_REQ, 40.0);

        Map<String, Double> both = MetricKeys.withHostSpeed(metrics, 400, 1_500);

        assertThat(both).containsEntry(MetricKeys.HOST_PROBE_NS, 400.0)
                .containsEntry(MetricKeys.HOST_PROBE_SYSCALL_NS, 1_500.0);
        assertThat(both.get(MetricKeys.CPU_US_PER_REQ_ADJ)).isCloseTo(100, within(1e-12));
        assertThat(MetricKeys.withHostSpeed(metrics, 400, Double.NaN)).doesNotContainKey(
                MetricKeys.HOST_PROBE_SYSCALL_NS);
        assertThat(MetricKeys.withHostSpeed(metrics, Double.NaN, 1_500)).as("no speed: nothing added")
                .isSameAs(metrics);
    }
}
