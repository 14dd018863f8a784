package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The kernel meter on this host: real perf events where they are allowed, the fallbacks everywhere. */
class KernelMeterTests {

    @Test
    void samplesAWindowOfThisProcessWhereCpuWideSamplingIsAllowed() {
        Optional<String> missing = CpuSampler.unavailableReason();
        assumeTrue(missing.isEmpty(), () -> "CPU-wide cpu-clock sampling is not allowed here (needs root, "
                + "CAP_PERFMON or kernel.perf_event_paranoid <= 0): " + missing.orElseThrow());

        ResourceUsage before = ResourceUsage.self();
        KernelWindow window = busyWindow(KernelMeter.of(CpuSplitMode.SAMPLED, 4999, false));
        double cpuSeconds = ResourceUsage.self().minus(before).cpuMicros() / 1e6;

        // one sample per 200 µs of this process's CPU time, the JIT compiler threads' time not sampled
        assertThat(window.cpuSplit().source()).isEqualTo(CpuSplit.Source.SAMPLED);
        assertThat((double) window.cpuSplit().samples()).isBetween(0.3 * cpuSeconds * 4999, 1.2 * cpuSeconds * 4999);
        assertThat(window.cpuSplit().userSamples()).isPositive();
        assertThat(window.syscalls()).isEmpty();
    }

    @Test
    void countsTheSystemCallsOfAWindowWhereTracepointsAreReadable() {
        Optional<String> missing = SyscallCounter.unavailableReason();
        assumeTrue(missing.isEmpty(), () -> "raw_syscalls:sys_enter cannot be counted here: " + missing.orElseThrow());

        KernelWindow window = busyWindow(KernelMeter.of(CpuSplitMode.TICK, 4999, true));

        // the window reads /proc about once per 256 iterations: thousands of system calls
        assertThat(window.syscalls()).isPresent();
        assertThat(window.syscalls().getAsLong()).isGreaterThan(100);
        assertThat(window.syscallsReason()).isNull();
        assertThat(window.cpuSplit().source()).isEqualTo(CpuSplit.Source.TICK);
    }

    /** 0.3 s of this thread computing, with a system call now and then. */
    private static KernelWindow busyWindow(KernelMeter meter) {
        try (KernelMeter.Session session = meter.open()) {
            long start = System.nanoTime();
            session.windowStarts(start);
            long sum = 0;
            while (System.nanoTime() - start < 300_000_000L) {
                sum += Long.toString(sum).hashCode();
                if ((sum & 0xff) == 0) {
                    ProcessHandle.current().info();
                }
            }
            assertThat(sum).isNotZero();
            return session.windowEnds(System.nanoTime());
        }
    }

    @Test
    void tickModeOpensNoEventAndSaysWhy() {
        KernelWindow window;
        try (KernelMeter.Session session = KernelMeter.off().open()) {
            session.windowStarts(System.nanoTime());
            window = session.windowEnds(System.nanoTime());
        }

        assertThat(window.cpuSplit().source()).isEqualTo(CpuSplit.Source.TICK);
        assertThat(window.cpuSplit().reason()).contains("sampling turned off");
        assertThat(window.syscalls()).isEmpty();
        assertThat(window.syscallsReason()).contains("perflab.countSyscalls=false");
    }

    @Test
    void autoModeKeepsAnExactKernelSplit() {
        KernelMeter meter = KernelMeter.of(CpuSplitMode.AUTO, 4999, false,
                new CpuTimeAccounting(CpuTimeAccounting.Kind.PRECISE, 250));

        KernelWindow window;
        try (KernelMeter.Session session = meter.open()) {
            session.windowStarts(System.nanoTime());
            window = session.windowEnds(System.nanoTime());
        }

        assertThat(window.cpuSplit().source()).isEqualTo(CpuSplit.Source.TICK);
        assertThat(window.cpuSplit().reason()).contains("exactly");
    }

    /** A buffer out of step at the window's end used to throw IllegalStateException out of the trial. */
    @Test
    void autoModeFallsBackToTheTickSplitOfAWindowWhoseBufferWentOutOfStep() {
        CraftedRingBuffer ring = new CraftedRingBuffer();

        KernelWindow window = windowOutOfStep(CpuSplitMode.AUTO, ring);

        assertThat(window.cpuSplit().source()).isEqualTo(CpuSplit.Source.TICK);
        assertThat(window.cpuSplit().reason()).isEqualTo("the cpu-clock samples cannot be trusted: the ring buffer "
                + "of CPU 0 could not be read in the last drain: perf ring buffer out of step: head 4096, tail 0, "
                + "size 1024");
    }

    @Test
    void sampledModeFailsAWindowWhoseBufferWentOutOfStepSayingWhy() {
        CraftedRingBuffer ring = new CraftedRingBuffer();

        assertThatThrownBy(() -> windowOutOfStep(CpuSplitMode.SAMPLED, ring))
                .isInstanceOf(KernelMeter.SampledSplitException.class)
                .hasMessage("cpu split mode sampled: the cpu-clock samples cannot be trusted: the ring buffer of "
                        + "CPU 0 could not be read in the last drain: perf ring buffer out of step: head 4096, "
                        + "tail 0, size 1024");
    }

    /** A window of {@code mode} sampled from {@code ring}, whose head jumps past a whole buffer before it ends. */
    private static KernelWindow windowOutOfStep(CpuSplitMode mode, CraftedRingBuffer ring) {
        CpuSampler sampler = new CpuSampler(4999);
        KernelMeter meter = KernelMeter.sampling(mode, sampler,
                new CpuTimeAccounting(CpuTimeAccounting.Kind.TICK, 250),
                filter -> sampler.start(filter, List.of(0), List.of(ring.buffer), 1000));
        try (KernelMeter.Session session = meter.open()) {
            session.windowStarts(System.nanoTime());
            ring.write(CraftedRingBuffer.userSample(1, System.nanoTime()));
            ring.head(4 * CraftedRingBuffer.DATA_SIZE);
            return session.windowEnds(System.nanoTime());
        }
    }

    /**
     * The JVM starts compiler threads as it needs them unless run with {@code -XX:-UseDynamicNumberOfCompilerThreads}.
     * The session's filter listed the compiler threads when it opened, and the samples of one started later counted
     * as the workload's.
     */
    @Test
    void aCompilerThreadStartedAfterTheSessionOpenedIsNotTheWorkloads() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/thread-self")), "Linux only");
        CpuSampler sampler = new CpuSampler(4999);
        CraftedRingBuffer ring = new CraftedRingBuffer();
        AtomicReference<SampleFilter> filter = new AtomicReference<>();
        KernelMeter meter = KernelMeter.sampling(CpuSplitMode.SAMPLED, sampler,
                new CpuTimeAccounting(CpuTimeAccounting.Kind.TICK, 250), f -> {
                    filter.set(f);
                    return sampler.start(f, List.of(0), List.of(ring.buffer), 1000);
                });
        int pid = (int) ProcessHandle.current().pid();
        try (KernelMeter.Session session = meter.open()) {
            CountDownLatch done = new CountDownLatch(1);
            try {
                int compiler = threadId("C2 CompilerThread7", done);
                int worker = threadId("rpc-worker-7", done);

                assertThat(filter.get().counts(pid, compiler)).as("a compiler thread's samples").isFalse();
                assertThat(filter.get().counts(pid, worker)).as("a workload thread's samples").isTrue();
            } finally {
                done.countDown();
            }
        }
    }

    /** Starts a thread named {@code name} that waits for {@code done}, and gives its id in the kernel. */
    private static int threadId(String name, CountDownLatch done) throws Exception {
        CompletableFuture<Integer> id = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                // "<pid>/task/<tid>"
                id.complete(Integer.parseInt(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName()
                        .toString()));
                done.await();
            } catch (IOException e) {
                id.completeExceptionally(new UncheckedIOException(e));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return id.get();
    }

    @Test
    void systemPropertiesChooseTheModeAndRateAndBadValuesNameTheProperty() {
        String mode = System.getProperty(KernelMeter.MODE_PROPERTY);
        String rate = System.getProperty(KernelMeter.RATE_PROPERTY);
        try {
            System.setProperty(KernelMeter.MODE_PROPERTY, "tick");
            System.setProperty(KernelMeter.RATE_PROPERTY, "10007");
            KernelMeter meter = KernelMeter.fromSystemProperties();
            assertThat(meter.mode()).isEqualTo(CpuSplitMode.TICK);
            assertThat(meter.rateHz()).isEqualTo(10007);
            assertThat(meter.countsSyscalls()).isTrue();

            System.setProperty(KernelMeter.MODE_PROPERTY, "perf");
            assertThatThrownBy(KernelMeter::fromSystemProperties).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("-Dperflab.cpuSplit must be tick, sampled or auto, got 'perf'");
            System.setProperty(KernelMeter.MODE_PROPERTY, "auto");
            System.setProperty(KernelMeter.RATE_PROPERTY, "200000");
            assertThatThrownBy(KernelMeter::fromSystemProperties).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("-Dperflab.cpuSplitHz: the cpu-clock sampling rate must be between 1 "
                            + "and 100000 Hz, got 200000");
        } finally {
            restore(KernelMeter.MODE_PROPERTY, mode);
            restore(KernelMeter.RATE_PROPERTY, rate);
        }
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }
}
