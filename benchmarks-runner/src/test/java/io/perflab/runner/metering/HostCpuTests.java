package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class HostCpuTests {

    @Test
    void othersShareIsHostBusyShareMinusThisProcess() {
        // 2 CPUs, 1 s: 200 ticks in all, 150 busy; this process used 1 s of CPU (half the capacity)
        HostCpu.Ticks start = new HostCpu.Ticks(1_000, 5_000);
        HostCpu.Ticks end = new HostCpu.Ticks(1_150, 5_200);

        double others = end.othersPercentSince(start, 1_000_000, 1_000_000_000L, 2);

        assertThat(others).isCloseTo(25.0, within(1e-9));
    }

    @Test
    void readsThisHostWhereProcStatExists() {
        HostCpu.read().ifPresent(ticks -> assertThat(ticks.total()).isGreaterThanOrEqualTo(ticks.busy()));
    }
}
