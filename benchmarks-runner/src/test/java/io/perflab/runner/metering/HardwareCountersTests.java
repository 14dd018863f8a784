package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Instructions and cycles counted per thread. This host's kernel may refuse hardware events (most virtual machines
 * do), so the counting itself is tested with software events opened the same way: {@code task-clock}, whose count
 * is the counted threads' CPU time in nanoseconds, so that what the counters read can be checked against the JVM's
 * own clocks.
 */
class HardwareCountersTests {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** The meter's counters with {@code task-clock} standing in for instructions and {@code cpu-clock} for cycles. */
    private static HardwareCounters softwareStandIns() {
        return HardwareCounters.open(ThreadCounters::open, PerfEventAttr.TYPE_SOFTWARE, PerfEventAttr.SW_TASK_CLOCK,
                PerfEventAttr.SW_CPU_CLOCK);
    }

    private static void assumePerThreadCountersAllowed() {
        try {
            softwareStandIns().close();
        } catch (PerfEvents.PerfEventException | UnsupportedOperationException | LinkageError e) {
            assumeTrue(false, "per-thread perf counters are not allowed here: " + e.getMessage());
        }
    }

    @Test
    void countsTheThreadsThatStartAfterTheCountersOpenedAndScalesWhatTheyRead() throws InterruptedException {
        assumePerThreadCountersAllowed();
        AtomicLong spun = new AtomicLong();
        try (HardwareCounters counters = softwareStandIns()) {
            HardwareCounters.Counts start = counters.read();
            // started after the counters opened: counted because the counters are inherited
            Thread worker = new Thread(() -> spun.set(spinCpu(200_000_000L)), "hardware-counters-worker");
            worker.start();
            worker.join();
            HardwareCounters.Counts counted = counters.read().since(start);

            // task-clock counts nanoseconds of the counted threads' CPU time: the worker's, and this thread's join
            assertThat(counted.instructions()).isBetween(0.9 * spun.get(), 1.5 * spun.get() + 50_000_000);
            assertThat(counted.cycles()).isBetween(0.9 * spun.get(), 1.5 * spun.get() + 50_000_000);
            assertThat(counted.instructions()).isEqualTo(Math.rint(counted.instructions()));
        }
    }

    @Test
    void aMeteredWindowGivesTheInstructionsAndCyclesOfItsThreads() {
        assumePerThreadCountersAllowed();
        KernelMeter meter = KernelMeter.off().countingHardwareWith(HardwareCountersTests::softwareStandIns);

        KernelWindow window;
        long spun;
        try (KernelMeter.Session session = meter.open()) {
            session.windowStarts(System.nanoTime());
            spun = spinCpu(100_000_000L);
            window = session.windowEnds(System.nanoTime());
        }

        assertThat(window.hardwareReason()).isNull();
        assertThat(window.instructions()).isPresent();
        assertThat((double) window.instructions().getAsLong()).isBetween(0.9 * spun, 1.5 * spun + 50_000_000);
        assertThat(window.cycles()).isPresent();
        assertThat(window.syscalls()).isEmpty();
    }

    @Test
    void aHostWithoutHardwareCountersIsNamedWithTheKernelsRefusal() {
        Supplier<HardwareCounters> refused = () -> {
            throw new PerfEvents.PerfEventException(2, "perf_event_open refused instructions: this kernel does not "
                    + "support the event (errno 2)");
        };
        KernelWindow window;
        try (KernelMeter.Session session = KernelMeter.off().countingHardwareWith(refused).open()) {
            session.windowStarts(System.nanoTime());
            window = session.windowEnds(System.nanoTime());
        }

        assertThat(window.instructions()).isEmpty();
        assertThat(window.cycles()).isEmpty();
        assertThat(window.hardwareReason()).isEqualTo("this host gives no hardware counters (perf_event_open refused "
                + "instructions: this kernel does not support the event (errno 2); most virtual machines do not pass "
                + "the CPU's performance counters through)");
        assertThat(HardwareCounters.refusalReason(new PerfEvents.PerfEventException(13, "not permitted (…)"), 2))
                .as("a refusal for want of permission says what a thread's counter of kernel mode needs")
                .isEqualTo("counting instructions in kernel mode is not permitted (kernel.perf_event_paranoid=2; it "
                        + "needs it ≤ 1, or CAP_PERFMON or CAP_SYS_ADMIN; a container's seccomp profile may refuse "
                        + "perf_event_open too)");
        assertThat(HardwareCounters.refusalReason(new PerfEvents.PerfEventException(24, "too many open files"), 2))
                .isEqualTo("too many open files");
    }

    @Test
    void thisHostEitherCountsInstructionsOrSaysWhyNot() {
        KernelWindow window;
        try (KernelMeter.Session session = KernelMeter.off().countingHardware(true).open()) {
            session.windowStarts(System.nanoTime());
            spinCpu(20_000_000L);
            window = session.windowEnds(System.nanoTime());
        }
        if (window.instructions().isPresent()) {
            assertThat(window.instructions().getAsLong()).isPositive();
            assertThat(window.cycles().getAsLong()).isPositive();
            assertThat(window.hardwareReason()).isNull();
        } else {
            assertThat(window.hardwareReason()).isNotBlank().doesNotContain("turned off");
        }
    }

    @Test
    void turnedOffOpensNothingAndSaysWhy() {
        KernelWindow window;
        try (KernelMeter.Session session = KernelMeter.off().open()) {
            session.windowStarts(System.nanoTime());
            window = session.windowEnds(System.nanoTime());
        }

        assertThat(window.instructions()).isEmpty();
        assertThat(window.hardwareReason()).isEqualTo("counting turned off (perflab.countHardware=false)");
    }

    @Test
    void aSystemPropertyTurnsCountingOffAndABadValueNamesIt() {
        String before = System.getProperty(KernelMeter.HARDWARE_PROPERTY);
        try {
            System.clearProperty(KernelMeter.HARDWARE_PROPERTY);
            assertThat(KernelMeter.fromSystemProperties().countsHardware()).isTrue();
            System.setProperty(KernelMeter.HARDWARE_PROPERTY, "false");
            assertThat(KernelMeter.fromSystemProperties().countsHardware()).isFalse();
            System.setProperty(KernelMeter.HARDWARE_PROPERTY, "maybe");
            assertThatThrownBy(KernelMeter::fromSystemProperties).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("-Dperflab.countHardware must be true or false, got 'maybe'");
        } finally {
            if (before == null) {
                System.clearProperty(KernelMeter.HARDWARE_PROPERTY);
            } else {
                System.setProperty(KernelMeter.HARDWARE_PROPERTY, before);
            }
        }
    }

    @Test
    void ofAJvmsFlagsTheLastThatSetsAPropertyGivesItsValue() {
        assertThat(KernelMeter.propertyIn(List.of("-Dperflab.countHardware=false", "-Xmx1g",
                "-Dperflab.countHardware=true"), KernelMeter.HARDWARE_PROPERTY)).contains("true");
        assertThat(KernelMeter.propertyIn(List.of("-Dperflab.countHardwareX=false", "-Dperflab.countSyscalls=false"),
                KernelMeter.HARDWARE_PROPERTY)).isEmpty();
    }

    /** Spins until this thread has used {@code nanos} of CPU time; returns the CPU time it used. */
    private static long spinCpu(long nanos) {
        long start = THREADS.getCurrentThreadCpuTime();
        long sum = 0;
        while (THREADS.getCurrentThreadCpuTime() - start < nanos) {
            sum += Long.toString(sum).hashCode();
        }
        assertThat(sum).isNotZero();
        return THREADS.getCurrentThreadCpuTime() - start;
    }
}
