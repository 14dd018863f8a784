package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;
import java.util.Set;
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

    /**
     * A session is opened ahead of its window (a paired design's {@code prepare}, then up to a second of waiting),
     * and its buffers filled up meanwhile: at 50 kHz, 1 s before the window is more than two CPUs' 512 KiB hold.
     * The window then began with full buffers, the kernel dropped its first samples until the first drain, and the
     * samples dropped before the window were counted as the window's lost samples: 6,549 samples of about 14,400,
     * and 44,184 lost, in one run here.
     *
     * <p>The test samples at 20 kHz, where a buffer holds 1.09 s of one CPU, for 2.5 s before a window of 0.5 s:
     * without the drains before the window, 25,068 were counted lost against the window's 7,020 in one run here.
     * A background drain held up on a busy machine loses samples too, in the window, fairly: at 50 kHz a buffer
     * held a quarter of what it does here, and a build's parallel tests lost 2,973 of 15,300 (19 %) that way once.
     * Here a drain must be held up more than half a second to lose any.
     */
    @Test
    void samplesBeforeTheWindowNeitherFillTheBuffersNorCountAsLost() {
        Optional<String> missing = CpuSampler.unavailableReason();
        assumeTrue(missing.isEmpty(), () -> "CPU-wide cpu-clock sampling is not allowed here: "
                + missing.orElseThrow());
        int rateHz = 20_000;

        CpuSampler.Counts counts;
        long cpuMicros;
        try (CpuSampler.Session session = new CpuSampler(rateHz)
                .start(SampleFilter.process(ProcessHandle.current().pid(), Set.of()))) {
            spin(2_500_000_000L);
            session.countFrom(System.nanoTime());
            ResourceUsage before = ResourceUsage.currentThread();
            spin(500_000_000L);
            cpuMicros = ResourceUsage.currentThread().minus(before).cpuMicros();
            counts = session.stop(System.nanoTime());
        }

        long samples = counts.user() + counts.kernel();
        assertThat(counts.lost()).isLessThan(samples / 2);
        // cpu-clock's timer fires late now and then on a busy guest: 77-100 % of the thread's CPU time seen here
        assertThat((double) samples).isGreaterThan(0.6 * cpuMicros / 1e6 * rateHz);
    }

    private static void spin(long nanos) {
        long start = System.nanoTime();
        long sum = 0;
        while (System.nanoTime() - start < nanos) {
            sum += Long.toString(sum).hashCode();
        }
        assertThat(sum).isNotZero();
    }
}
