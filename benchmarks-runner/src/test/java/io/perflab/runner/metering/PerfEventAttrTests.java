package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Offsets and bits as linux/perf_event.h lays out struct perf_event_attr (PERF_ATTR_SIZE_VER5). */
class PerfEventAttrTests {

    @Test
    void cpuClockSamplingEncodesPeriodTidTimeAndMonotonicClock() {
        ByteBuffer b = ByteBuffer.wrap(PerfEventAttr.cpuClockSampling(200_040).encode()).order(ByteOrder.nativeOrder());

        assertThat(b.capacity()).isEqualTo(112);
        assertThat(b.getInt(0)).as("type PERF_TYPE_SOFTWARE").isEqualTo(1);
        assertThat(b.getInt(4)).as("size").isEqualTo(112);
        assertThat(b.getLong(8)).as("config PERF_COUNT_SW_CPU_CLOCK").isZero();
        assertThat(b.getLong(16)).as("sample_period, ns").isEqualTo(200_040);
        assertThat(b.getLong(24)).as("sample_type TID | TIME").isEqualTo(0b110);
        assertThat(b.getLong(32)).as("read_format").isZero();
        // disabled (bit 0), exclude_hv (6), exclude_idle (7), sample_id_all (18): losses and throttling carry the
        // time and thread as samples do, use_clockid (25)
        assertThat(b.getLong(40)).isEqualTo(1L | 1L << 6 | 1L << 7 | 1L << 18 | 1L << 25);
        assertThat(b.getInt(92)).as("clockid CLOCK_MONOTONIC").isEqualTo(1);
    }

    @Test
    void tracepointCounterIsInheritedAndEnabled() {
        ByteBuffer b = ByteBuffer.wrap(PerfEventAttr.tracepointCounter(443).encode()).order(ByteOrder.nativeOrder());

        assertThat(b.getInt(0)).as("type PERF_TYPE_TRACEPOINT").isEqualTo(2);
        assertThat(b.getLong(8)).as("config: the tracepoint's id").isEqualTo(443);
        assertThat(b.getLong(16)).as("no sampling").isZero();
        assertThat(b.getLong(40)).as("inherit (bit 1) only, enabled").isEqualTo(2);
    }

    @Test
    void scaledCounterCountsUserAndKernelInheritedAndReadsItsTimes() {
        ByteBuffer b = ByteBuffer.wrap(PerfEventAttr.scaledCounter(PerfEventAttr.TYPE_HARDWARE,
                PerfEventAttr.HW_INSTRUCTIONS).encode()).order(ByteOrder.nativeOrder());

        assertThat(b.getInt(0)).as("type PERF_TYPE_HARDWARE").isZero();
        assertThat(b.getLong(8)).as("config PERF_COUNT_HW_INSTRUCTIONS").isEqualTo(1);
        assertThat(b.getLong(16)).as("no sampling").isZero();
        assertThat(b.getLong(32)).as("read_format TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING").isEqualTo(0b11);
        // inherit (bit 1), exclude_hv (6); neither exclude_user (4) nor exclude_kernel (5): both modes counted
        assertThat(b.getLong(40)).isEqualTo(1L << 1 | 1L << 6);
        assertThat(PerfEventAttr.scaledCounter(PerfEventAttr.TYPE_HARDWARE, PerfEventAttr.HW_CPU_CYCLES).config())
                .as("PERF_COUNT_HW_CPU_CYCLES").isZero();
    }
}
