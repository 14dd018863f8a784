package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PerfEventsTests {

    @Test
    void explainsWhatARefusalMeansAndWhatWouldAllowIt() {
        assertThat(PerfEvents.openError(13, 2)).startsWith("not permitted (kernel.perf_event_paranoid=2; sampling "
                + "every CPU needs it ≤ 0, or CAP_PERFMON or CAP_SYS_ADMIN");
        assertThat(PerfEvents.openError(1, Integer.MIN_VALUE)).contains("kernel.perf_event_paranoid unreadable",
                "seccomp");
        assertThat(PerfEvents.openError(38, 2)).contains("not available", "seccomp");
        assertThat(PerfEvents.openError(2, 2)).contains("does not support the event");
        assertThat(PerfEvents.openError(99, 2)).isEqualTo("errno 99");
    }

    @Test
    void scalesACountTheKernelMultiplexedToTheWholeTimeItWasEnabled() {
        assertThat(PerfEvents.scaled(1_000, 200, 100)).isEqualTo(2_000);
        assertThat(PerfEvents.scaled(1_000, 100, 100)).isEqualTo(1_000);
        assertThat(PerfEvents.scaled(7, 100, 0)).as("never scheduled on a counter yet").isZero();
    }

    @Test
    void knowsTheSystemCallNumberOfTheArchitecturesItRunsOn() {
        assertThat(PerfEvents.syscallNumber("amd64")).isEqualTo(298);
        assertThat(PerfEvents.syscallNumber("aarch64")).isEqualTo(241);
        assertThat(PerfEvents.syscallNumber("riscv64")).isEqualTo(-1);
    }
}
