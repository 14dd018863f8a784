package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Checks {@code getrusage} readings against work of known size. The reference for CPU time is the JVM's own
 * per-thread user time, so the test does not depend on how busy the shared machine is.
 */
class ResourceUsageTests {

    /** The unit of times(), which the JVM's process CPU time is read with on Linux: 1 / USER_HZ. */
    private static final double CLOCK_TICK_MICROS = 10_000;

    /**
     * RUSAGE_SELF counts every thread of a JVM, and in the test JVM the JIT compilers are busy with whatever
     * earlier tests loaded. So the burn runs in a fresh JVM without compiler threads ({@code -Xint}) and with the
     * serial collector: there, the burner is the only thread using CPU.
     */
    @Test
    void userTimeOfSelfGrowsByTheCpuTimeBurnedInAThread() throws Exception {
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xint",
                "-XX:+UseSerialGC", "-Xmx32m", "-cp", System.getProperty("java.class.path"),
                BurnInFreshJvm.class.getName(), "200").redirectErrorStream(true).start();
        String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(jvm.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String[] lines = output.split("\n");
        String[] figures = lines[lines.length - 1].trim().split(" ");
        double user = Double.parseDouble(figures[0]);
        double system = Double.parseDouble(figures[1]);
        double burnedMicros = Double.parseDouble(figures[2]);
        double processMicros = Double.parseDouble(figures[3]);

        assertThat(burnedMicros).isGreaterThanOrEqualTo(200_000);
        // the whole process's CPU time (the kernel's runtime of all its threads) is what getrusage divides: the
        // burning thread's, plus whatever the JVM's other threads ran meanwhile. The JVM reads it with times(), in
        // clock ticks of 10 ms (USER_HZ 100), so a span of it may come out a tick short (190 ms against 200 seen)
        assertThat(processMicros).isGreaterThanOrEqualTo(burnedMicros * 0.99 - CLOCK_TICK_MICROS);
        // getrusage sums the threads' runtime as last updated by the scheduler, the process CPU clock adds what the
        // running threads ran since; on a loaded 2-vCPU guest the two were seen 7 % apart once (205 against 220 ms)
        assertThat(user + system).as("user + system").isCloseTo(processMicros, within(processMicros * 0.10));
        // the kernel splits the exact runtime into user and system time by where its ticks landed; on a loaded
        // machine more ticks land in the scheduler, so the user share of a pure-arithmetic loop may dip below 90 %
        assertThat(user).as("user").isCloseTo(burnedMicros, within(burnedMicros * 0.15));
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
        int cycles = 100;
        ResourceUsage before = ResourceUsage.currentThread();
        for (int i = 0; i < cycles; i++) {
            LockSupport.parkNanos(1_000_000);
        }
        ResourceUsage delta = ResourceUsage.currentThread().minus(before);

        // a thread preempted on its way to sleep, whose timer fires meanwhile, never sleeps: its switch was
        // involuntary; every cycle is a switch, nearly all voluntary
        assertThat(delta.contextSwitches()).isGreaterThanOrEqualTo(cycles);
        assertThat(delta.voluntaryContextSwitches()).isGreaterThanOrEqualTo(cycles * 9 / 10);
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
     * Spins on arithmetic until this thread has used {@code nanos} of CPU time; returns the CPU time it used.
     * The thread CPU clock ({@code CLOCK_THREAD_CPUTIME_ID}) is exact to the nanosecond and read about once per
     * millisecond of work, so the loop's system time stays negligible.
     */
    private static long burnUserCpu(long nanos) {
        return BurnInFreshJvm.burnUserCpu(nanos, 1_000_000);
    }
}
