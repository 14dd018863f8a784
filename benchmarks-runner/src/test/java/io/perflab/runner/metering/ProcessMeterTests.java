package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.metering.ProcessMeter.GcTotals;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProcessMeterTests {

    private static final int MIB = 1024 * 1024;

    private static volatile Object sink;

    @Test
    void allocationDeltaMatchesTheBytesAllocated() {
        ProcessMeter meter = ProcessMeter.forThisProcess();
        allocate(MIB); // load and compile what the loop needs first
        ProcessMeter.Snapshot start = meter.snapshot();
        allocate(10 * MIB);
        ProcessMeter.Window window = meter.snapshot().since(start);

        assertThat(window.allocatedBytes()).isBetween(10L * MIB, 11L * MIB);
    }

    @Test
    void gcDeltaCountsRequestedCollections() {
        ProcessMeter meter = ProcessMeter.forThisProcess();
        ProcessMeter.Snapshot start = meter.snapshot();
        System.gc();
        ProcessMeter.Window window = meter.snapshot().since(start);

        // gcMillis is the difference of the collectors' totals, as windowIsTheDifferenceOfTwoSnapshots shows
        assertThat(window.gcCount()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void windowIsTheDifferenceOfTwoSnapshots() {
        Deque<Long> clock = new ArrayDeque<>(List.of(1_000L, 3_001_000L));
        Deque<ResourceUsage> usage = new ArrayDeque<>(List.of(new ResourceUsage(10, 20, 3, 4),
                new ResourceUsage(1010, 520, 33, 5)));
        Deque<Long> allocated = new ArrayDeque<>(List.of(100L, 4196L));
        Deque<GcTotals> gc = new ArrayDeque<>(List.of(new GcTotals(2, 5), new GcTotals(3, 12)));
        ProcessMeter meter = new ProcessMeter(clock::pop, usage::pop, allocated::pop, gc::pop);

        ProcessMeter.Snapshot first = meter.snapshot();
        ProcessMeter.Window window = meter.snapshot().since(first);

        assertThat(window).isEqualTo(new ProcessMeter.Window(3_000_000L, new ResourceUsage(1000, 500, 30, 1),
                ResourceUsage.ZERO, 4096L, 1, 7));
    }

    @Test
    void compilerThreadsAreTakenOutOfTheWindowAndReportedApart() {
        Deque<Long> clock = new ArrayDeque<>(List.of(0L, 1_000_000L));
        Deque<ResourceUsage> usage = new ArrayDeque<>(List.of(new ResourceUsage(100, 50, 10, 1),
                new ResourceUsage(1100, 550, 40, 6)));
        // 310 µs on CPU in between, 30 user ticks and 1 system tick: 300 µs user, 10 µs system
        Deque<CompilerThreads.Reading> compilers = new ArrayDeque<>(List.of(
                new CompilerThreads.Reading(42_000, 4, 0, 3, 0), new CompilerThreads.Reading(42_000, 4, 0, 3, 0),
                new CompilerThreads.Reading(352_000, 34, 1, 8, 2), new CompilerThreads.Reading(352_000, 34, 1, 8, 2)));
        ProcessMeter meter = new ProcessMeter(clock::pop, usage::pop, () -> 0L, () -> new GcTotals(0, 0),
                compilers::pop);

        ProcessMeter.Snapshot start = meter.snapshot();
        ProcessMeter.Window window = meter.snapshot().since(start);

        assertThat(window.compilerThreads()).isEqualTo(new ResourceUsage(300, 10, 5, 2));
        assertThat(window.usage()).isEqualTo(new ResourceUsage(700, 490, 25, 3));
        assertThat(window.processUsage()).isEqualTo(new ResourceUsage(1000, 500, 30, 5));
    }

    @Test
    void aCoarseTickSplitNeverDrivesTheProcessFiguresBelowZero() {
        Deque<Long> clock = new ArrayDeque<>(List.of(0L, 1_000_000L));
        Deque<ResourceUsage> usage = new ArrayDeque<>(List.of(new ResourceUsage(0, 0, 0, 0),
                new ResourceUsage(900, 20, 10, 0)));
        // 500 µs on CPU, one system tick and no user tick: all 500 µs would be system time
        Deque<CompilerThreads.Reading> compilers = new ArrayDeque<>(List.of(
                new CompilerThreads.Reading(0, 0, 0, 0, 0), new CompilerThreads.Reading(0, 0, 0, 0, 0),
                new CompilerThreads.Reading(500_000, 0, 1, 2, 0), new CompilerThreads.Reading(500_000, 0, 1, 2, 0)));
        ProcessMeter meter = new ProcessMeter(clock::pop, usage::pop, () -> 0L, () -> new GcTotals(0, 0),
                compilers::pop);

        ProcessMeter.Snapshot start = meter.snapshot();
        ProcessMeter.Window window = meter.snapshot().since(start);

        assertThat(window.compilerThreads()).isEqualTo(new ResourceUsage(480, 20, 2, 0));
        assertThat(window.usage()).isEqualTo(new ResourceUsage(420, 0, 8, 0));
    }

    @Test
    void theCompilerThreadsPageFaultsNeverDriveTheProcessBelowNone() {
        Deque<Long> clock = new ArrayDeque<>(List.of(0L, 1_000_000L));
        Deque<ResourceUsage> usage = new ArrayDeque<>(List.of(new ResourceUsage(0, 0, 0, 0, 100),
                new ResourceUsage(900, 20, 10, 0, 130)));
        // from the start's second reading to the end's first the compiler faulted 40 times, more than the process's
        // 30 that getrusage counted a moment apart
        Deque<CompilerThreads.Reading> compilers = new ArrayDeque<>(List.of(
                new CompilerThreads.Reading(0, 0, 0, 0, 0, 50), new CompilerThreads.Reading(0, 0, 0, 0, 0, 60),
                new CompilerThreads.Reading(500_000, 1, 0, 2, 0, 100),
                new CompilerThreads.Reading(500_000, 1, 0, 2, 0, 100)));
        ProcessMeter meter = new ProcessMeter(clock::pop, usage::pop, () -> 0L, () -> new GcTotals(0, 0),
                compilers::pop);

        ProcessMeter.Snapshot start = meter.snapshot();
        ProcessMeter.Window window = meter.snapshot().since(start);

        assertThat(window.compilerThreads().pageFaults()).isEqualTo(30);
        assertThat(window.usage().pageFaults()).isZero();
        assertThat(window.processUsage().pageFaults()).isEqualTo(30);
    }

    /**
     * A compilation of 100 ms runs while the start snapshot reads (its thread held up under {@code -Xbatch}, between
     * the compiler threads' first reading and {@code getrusage}). The process's figures do not hold it, so neither
     * may what comes off them: the compiler threads' interval runs from the start's reading after {@code getrusage}
     * to the end's before it. Taken from the start's first reading, 110 ms would come off the process's 30 ms.
     */
    @Test
    void aCompilationWhileTheStartIsReadIsNotTakenOutOfTheWindow() {
        Deque<Long> clock = new ArrayDeque<>(List.of(0L, 50_000_000L));
        Deque<ResourceUsage> usage = new ArrayDeque<>(List.of(new ResourceUsage(200_000, 0, 0, 0),
                new ResourceUsage(220_000, 10_000, 40, 2)));
        Deque<CompilerThreads.Reading> compilers = new ArrayDeque<>(List.of(
                new CompilerThreads.Reading(0, 0, 0, 0, 0), new CompilerThreads.Reading(100_000_000, 10, 0, 1, 1),
                new CompilerThreads.Reading(110_000_000, 11, 0, 2, 1),
                new CompilerThreads.Reading(115_000_000, 12, 0, 3, 1)));
        ProcessMeter meter = new ProcessMeter(clock::pop, usage::pop, () -> 0L, () -> new GcTotals(0, 0),
                compilers::pop);

        ProcessMeter.Snapshot start = meter.snapshot();
        ProcessMeter.Window window = meter.snapshot().since(start);

        assertThat(window.compilerThreads()).isEqualTo(new ResourceUsage(10_000, 0, 1, 0));
        assertThat(window.usage()).isEqualTo(new ResourceUsage(10_000, 10_000, 39, 2));
    }

    /**
     * {@code /proc/self/task} could not be listed at the start's second reading (a process out of file
     * descriptors): read as no compiler thread, the window took out all 60 s their CPU had used since the JVM
     * started and its own figure fell to -58.5 s.
     */
    @Test
    void aFailedReadingOfTheCompilerThreadsNeverDrivesTheWindowBelowZero() {
        Deque<Long> clock = new ArrayDeque<>(List.of(0L, 1_000_000_000L));
        Deque<ResourceUsage> usage = new ArrayDeque<>(List.of(new ResourceUsage(70_000_000, 10_000_000, 0, 0),
                new ResourceUsage(71_000_000, 10_500_000, 10, 0)));
        CompilerThreads.Reading cumulative = new CompilerThreads.Reading(60_000_000_000L, 6000, 0, 100, 0);
        Deque<Optional<CompilerThreads.Reading>> readings = new ArrayDeque<>(List.of(Optional.of(cumulative),
                Optional.empty(), Optional.of(cumulative), Optional.of(cumulative)));
        ProcessMeter meter = new ProcessMeter(clock::pop, usage::pop, () -> 0L, () -> new GcTotals(0, 0),
                ProcessMeter.orUnknown(readings::pop));

        ProcessMeter.Snapshot start = meter.snapshot();
        ProcessMeter.Window window = meter.snapshot().since(start);

        assertThat(window.usage()).isEqualTo(new ResourceUsage(1_000_000, 500_000, 10, 0));
        assertThat(window.compilerThreads()).isEqualTo(ResourceUsage.ZERO);
    }

    /**
     * A compiler thread with 2 s of CPU ends while another compiles for 0.3 s: the readings' sum falls from 3 s to
     * 1.3 s, and a warmup step took the JIT's work in it for -1.7 s, a JIT at rest.
     */
    @Test
    void theCompilerThreadsCpuSoFarNeverFallsWhenOneEnds() {
        CompilerThreads.Reading first = CompilerThreads.Reading.ofThreads(Map.of(
                101, new CompilerThreads.Reading(2_000_000_000L, 200, 0, 0, 0),
                102, new CompilerThreads.Reading(1_000_000_000L, 100, 0, 0, 0)));
        CompilerThreads.Reading second = CompilerThreads.Reading.ofThreads(Map.of(
                102, new CompilerThreads.Reading(1_300_000_000L, 130, 0, 0, 0)));
        Deque<CompilerThreads.Reading> compilers = new ArrayDeque<>(List.of(first, second,
                CompilerThreads.Reading.UNKNOWN, second));
        ProcessMeter meter = new ProcessMeter(() -> 0L, () -> ResourceUsage.ZERO, () -> 0L,
                () -> new GcTotals(0, 0), compilers::pop);

        assertThat(meter.compilerCpuMicros()).isEqualTo(3_000_000);
        assertThat(meter.compilerCpuMicros()).isEqualTo(3_300_000);
        assertThat(meter.compilerCpuMicros()).as("a failed reading").isEqualTo(3_300_000);
        assertThat(meter.compilerCpuMicros()).isEqualTo(3_300_000);
    }

    private static void allocate(int bytes) {
        for (int i = 0; i < bytes / 1024; i++) {
            sink = new byte[1024 - 16]; // 16-byte array header on a 64-bit JVM with compressed class pointers
        }
    }
}
