package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostCpuTests {

    @TempDir
    Path dir;

    @Test
    void othersShareIsHostBusyShareMinusThisProcess() {
        // 2 CPUs, 1 s: 200 ticks in all, 150 busy; this process used 1 s of CPU (half the capacity)
        HostCpu.Ticks start = new HostCpu.Ticks(1_000, 5_000, 2);
        HostCpu.Ticks end = new HostCpu.Ticks(1_150, 5_200, 2);

        double others = end.othersPercentSince(start, 1_000_000, 1_000_000_000L);

        assertThat(others).isCloseTo(25.0, within(1e-9));
    }

    @Test
    void countsTheHostsCpusNotTheOnesThisProcessIsPinnedTo() throws IOException {
        // a process pinned to one of two CPUs, busy all of 1 s on it, on an otherwise idle host: 100 of 200 ticks
        Path stat = dir.resolve("stat");
        Files.write(stat, List.of("cpu  600 0 400 9000 0 0 0 0 0 0", "cpu0 300 0 200 4500 0 0 0 0 0 0",
                "cpu1 300 0 200 4500 0 0 0 0 0 0", "intr 12345", "ctxt 6789"));
        HostCpu.Ticks start = HostCpu.read(stat).orElseThrow();
        Files.write(stat, List.of("cpu  650 0 450 9100 0 0 0 0 0 0", "cpu0 350 0 250 4500 0 0 0 0 0 0",
                "cpu1 300 0 200 4600 0 0 0 0 0 0"));
        HostCpu.Ticks end = HostCpu.read(stat).orElseThrow();

        assertThat(end.cpus()).isEqualTo(2);
        assertThat(end.othersPercentSince(start, 1_000_000, 1_000_000_000L)).isCloseTo(0.0, within(1e-9));
    }

    @Test
    void unreadableStatIsEmpty() {
        assertThat(HostCpu.read(dir.resolve("missing"))).isEmpty();
    }

    @Test
    void readsThisHostWhereProcStatExists() {
        HostCpu.read().ifPresent(ticks -> {
            assertThat(ticks.total()).isGreaterThanOrEqualTo(ticks.busy());
            assertThat(ticks.cpus()).isPositive();
        });
    }
}
