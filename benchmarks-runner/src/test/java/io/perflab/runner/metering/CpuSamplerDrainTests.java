package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Draining ring buffers laid out as the kernel's, in memory of this process: no perf event, no kernel fault. */
class CpuSamplerDrainTests {

    private static final int TID = 7;
    /** A drain interval no test outlasts: only the last drain, at stop, reads the buffer. */
    private static final long NO_BACKGROUND_DRAIN = 3_600_000;

    @Test
    void countsTheSamplesOfTheWindowFromACraftedBuffer() {
        CraftedRingBuffer ring = new CraftedRingBuffer();
        ring.write(CraftedRingBuffer.userSample(TID, 5));
        ring.write(CraftedRingBuffer.userSample(TID, 15));
        ring.write(CraftedRingBuffer.userSample(TID + 1, 16));

        CpuSampler.Session session = new CpuSampler(4999).start(SampleFilter.thread(TID), List.of(0),
                List.of(ring.buffer), 1000);
        session.countFrom(10);
        CpuSampler.Counts counts = session.stop(20);

        assertThat(counts.user()).isEqualTo(1);
        assertThat(counts.kernel()).isZero();
    }

    /** A failed background drain used to end the drainer's schedule without a word, and the window looked whole. */
    @Test
    void aBackgroundDrainThatFailedIsReportedWhenTheWindowStops() throws InterruptedException {
        CraftedRingBuffer ring = new CraftedRingBuffer();
        ring.tail(64); // head 0 behind the tail: out of step

        CpuSampler.Session session = new CpuSampler(4999).start(SampleFilter.thread(TID), List.of(3),
                List.of(ring.buffer), 10);
        assertThat(ring.tailReads.await(30, TimeUnit.SECONDS)).isTrue();
        // waits for that drain to end, then puts the buffer back in step with a sample of the window
        session.countFrom(10);
        ring.tail(0);
        ring.head(0);
        ring.write(CraftedRingBuffer.userSample(TID, 15));

        assertThatThrownBy(() -> session.stop(20)).isInstanceOf(UnreadableSamplesException.class)
                .hasMessage("the cpu-clock samples cannot be trusted: the ring buffer of CPU 3 could not be read in "
                        + "a background drain: perf ring buffer out of step: head 0, tail 64, size 1024");
    }

    @Test
    void aRecordTheKernelDoesNotWriteIsReportedWhenTheWindowStops() {
        CraftedRingBuffer ring = new CraftedRingBuffer();
        CpuSampler.Session session = new CpuSampler(4999).start(SampleFilter.thread(TID), List.of(1),
                List.of(ring.buffer), 1000);
        session.countFrom(10);
        ring.write(CraftedRingBuffer.userSample(TID, 15));
        ring.write(CraftedRingBuffer.record(SampleTally.RECORD_SAMPLE, 2, 0, TID, 16));

        assertThatThrownBy(() -> session.stop(20)).isInstanceOf(UnreadableSamplesException.class)
                .hasMessage("the cpu-clock samples cannot be trusted: the ring buffer of CPU 1 held a record of "
                        + "type 9 and size 0 at byte 24 of 48 read in the last drain, not a record the kernel writes");
    }

    /**
     * A loss without a time stamp may have been the window's or its neighbours': its count was charged to the
     * window. The window's split cannot be trusted to have lost nothing, nor known to have lost it.
     */
    @Test
    void aLossWithoutATimeIsReportedWhenTheWindowStops() {
        CraftedRingBuffer ring = new CraftedRingBuffer();
        CpuSampler.Session session = new CpuSampler(4999).start(SampleFilter.thread(TID), List.of(2),
                List.of(ring.buffer), 1000);
        session.countFrom(10);
        ring.write(CraftedRingBuffer.userSample(TID, 15));
        ring.write(CraftedRingBuffer.record(SampleTally.RECORD_LOST, 0, 24, 0, 12)); // id 0, 12 lost
        ring.write(CraftedRingBuffer.userSample(TID, 16));

        assertThatThrownBy(() -> session.stop(20)).isInstanceOf(UnreadableSamplesException.class)
                .hasMessage("the cpu-clock samples cannot be trusted: the ring buffer of CPU 2 reported a loss of 12 "
                        + "samples without a time stamp in the last drain, which cannot be placed inside or outside "
                        + "the window");
    }

    /**
     * The kernel says how many samples a full buffer made it drop only in the next record it writes there, and once
     * sampling stops it writes none: a window whose buffer was full at the last drain looked complete. 42 samples
     * of 24 bytes leave 16 of its 1,024 bytes free, too few for another.
     */
    @Test
    void aBufferStillFullWhenSamplingStopsFailsTheWindowsSamples() {
        CraftedRingBuffer ring = new CraftedRingBuffer();
        CpuSampler.Session session = new CpuSampler(4999).start(SampleFilter.thread(TID), List.of(1),
                List.of(ring.buffer), NO_BACKGROUND_DRAIN);
        session.countFrom(10);
        for (int i = 0; i < 42; i++) {
            ring.write(CraftedRingBuffer.userSample(TID, 11 + i));
        }

        assertThatThrownBy(() -> session.stop(100)).isInstanceOf(UnreadableSamplesException.class)
                .hasMessage("the cpu-clock samples cannot be trusted: the ring buffer of CPU 1 was full when sampling "
                        + "stopped: the kernel may have dropped samples of the window, and says how many only when it "
                        + "next writes there (a buffer not emptied in time: a lower rate fills it more slowly)");
    }

    /** Samples dropped after a record later than the window's end are not the window's, as a loss record's are not. */
    @Test
    void aBufferThatFilledAfterTheWindowEndedDoesNotFailIt() {
        CraftedRingBuffer ring = new CraftedRingBuffer();
        CpuSampler.Session session = new CpuSampler(4999).start(SampleFilter.thread(TID), List.of(1),
                List.of(ring.buffer), NO_BACKGROUND_DRAIN);
        session.countFrom(10);
        ring.write(CraftedRingBuffer.userSample(TID, 15));
        for (int i = 0; i < 41; i++) {
            ring.write(CraftedRingBuffer.userSample(TID, 21 + i));
        }

        CpuSampler.Counts counts = session.stop(20);

        assertThat(counts.user()).isEqualTo(1);
        assertThat(counts.lost()).isZero();
    }
}
