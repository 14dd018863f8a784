package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CpuSamplerTests {

    @Test
    void readsKernelCpuLists() {
        assertThat(CpuSampler.parseCpuList("0-3,8,10-11")).containsExactly(0, 1, 2, 3, 8, 10, 11);
        assertThat(CpuSampler.parseCpuList("1")).containsExactly(1);
        assertThat(CpuSampler.parseCpuList("2,0-1,")).containsExactly(0, 1, 2);
    }

    @Test
    void drainsOftenEnoughThatABufferIsAtMostAQuarterFull() {
        // 512 KiB at 4,999 Hz of 24-byte samples fill in 4.37 s
        assertThat(CpuSampler.drainIntervalMillis(512 * 1024, 4999)).isEqualTo(1000);
        assertThat(CpuSampler.drainIntervalMillis(512 * 1024, 100_000)).isEqualTo(54);
        assertThat(CpuSampler.drainIntervalMillis(4096, 100_000)).isEqualTo(10);
    }

    @Test
    void refusesARateItsTimerCannotKeep() {
        assertThatThrownBy(() -> new CpuSampler(0)).hasMessageContaining("between 1 and 100000 Hz, got 0");
        assertThatThrownBy(() -> new CpuSampler(100_001)).isInstanceOf(IllegalArgumentException.class);
    }
}
