package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Checks {@code getrusage} readings against work of known size. The reference for CPU time is the JVM's own
 * per-thread user time, so the test does not depend on how busy the shared machine is.
 */
class ResourceUsageTests {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static volatile long sink;

    @Test
    void userTimeOfSelfGrowsByTheCpuTimeBurnedInAThread() throws Exception {
        burnUserCpu(TimeUnit.MILLISECONDS.toNanos(20)); // compile the loop before measuring
        awaitQuietJit();
        long[] threadCpuNanos = new long[1];
        ResourceUsage before = ResourceUsage.self();
        Thread burner = new Thread(() -> threadCpuNanos[0] = burnUserCpu(TimeUnit.MILLISECONDS.toNanos(200)));
        burner.start();
        burner.join();
        ResourceUsage delta = ResourceUsage.self().minus(before);

        double burnedMicros = threadCpuNanos[0] / 1000.0;
        assertThat(burnedMicros).isGreaterThanOrEqualTo(200_000);
        assertThat((double) delta.cpuMicros()).as("user + system").isCloseTo(burnedMicros, within(burnedMicros * 0.10));
        // the kernel splits the exact runtime into user and system time by where its ticks landed; on a loaded
        // machine more ticks land in the scheduler, so the user share of a pure-arithmetic loop may dip below 90 %
        assertThat((double) delta.userMicros()).as("user").isCloseTo(burnedMicros, within(burnedMicros * 0.15));
    }

    @Test
    void threadUsageCountsOnlyTheCallingThread() {
        ResourceUsage before = ResourceUsage.currentThread();
        long burned = burnUserCpu(TimeUnit.MILLISECONDS.toNanos(50));
        ResourceUsage delta = ResourceUsage.currentThread().minus(before);

        assertThat((double) delta.cpuMicros()).isCloseTo(burned / 1000.0, within(burned / 1000.0 * 0.10));
    }

    @Test
    void everySleepAndWakeIsAVoluntaryContextSwitch() {
        int cycles = 200;
        ResourceUsage before = ResourceUsage.currentThread();
        for (int i = 0; i < cycles; i++) {
            LockSupport.parkNanos(200_000);
        }
        ResourceUsage delta = ResourceUsage.currentThread().minus(before);

        assertThat(delta.voluntaryContextSwitches()).isGreaterThanOrEqualTo(cycles);
        assertThat(ResourceUsage.self().voluntaryContextSwitches())
                .isGreaterThanOrEqualTo(delta.voluntaryContextSwitches());
    }

    @Test
    void differenceIsFieldByField() {
        ResourceUsage later = new ResourceUsage(1500, 700, 40, 3);
        ResourceUsage earlier = new ResourceUsage(500, 200, 10, 1);

        ResourceUsage delta = later.minus(earlier);

        assertThat(delta).isEqualTo(new ResourceUsage(1000, 500, 30, 2));
        assertThat(delta.cpuMicros()).isEqualTo(1500);
        assertThat(delta.contextSwitches()).isEqualTo(32);
    }

    /**
     * RUSAGE_SELF counts every thread of the test JVM, the JIT compilers included, and those are busy with the
     * classes earlier tests loaded. Waits (at most two seconds) until no compilation happened for 100 ms.
     */
    private static void awaitQuietJit() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        long last = -1;
        while (System.nanoTime() < deadline) {
            long total = jit.getTotalCompilationTime();
            if (total == last) {
                return;
            }
            last = total;
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    /**
     * Spins on arithmetic until this thread has used {@code nanos} of CPU time; returns the CPU time it used.
     * The thread CPU clock ({@code CLOCK_THREAD_CPUTIME_ID}) is exact to the nanosecond and read about once per
     * millisecond of work, so the loop's system time stays negligible.
     */
    private static long burnUserCpu(long nanos) {
        long start = THREADS.getCurrentThreadCpuTime();
        long x = 0;
        long used;
        do {
            for (int i = 0; i < 1_000_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            used = THREADS.getCurrentThreadCpuTime() - start;
        } while (used < nanos);
        sink = x;
        return used;
    }
}
