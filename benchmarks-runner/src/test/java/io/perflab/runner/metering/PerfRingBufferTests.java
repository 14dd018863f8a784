package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class PerfRingBufferTests {

    /** A data area of 16 bytes holding 0..15. */
    private static final byte[] AREA = new byte[16];

    static {
        for (int i = 0; i < AREA.length; i++) {
            AREA[i] = (byte) i;
        }
    }

    private static final PerfRingBuffer.DataArea DATA = (offset, into, at, count) ->
            System.arraycopy(AREA, (int) offset, into, at, count);

    @Test
    void copiesWhatLiesBetweenTailAndHead() {
        byte[] out = new byte[16];

        assertThat(PerfRingBuffer.copy(DATA, 16, 4, 9, out)).isEqualTo(5);
        assertThat(out).startsWith(4, 5, 6, 7, 8);
    }

    @Test
    void unwrapsARangeThatCrossesTheEndOfTheArea() {
        byte[] out = new byte[16];

        // head and tail only grow: 36 and 44 are offsets 4 and 12 of the third lap
        assertThat(PerfRingBuffer.copy(DATA, 16, 44, 52, out)).isEqualTo(8);
        assertThat(out).startsWith(12, 13, 14, 15, 0, 1, 2, 3);
        assertThat(PerfRingBuffer.copy(DATA, 16, 48, 48, out)).isZero();
    }

    @Test
    void refusesAHeadBehindTheTailOrMoreThanAFullArea() {
        byte[] out = new byte[16];

        assertThatThrownBy(() -> PerfRingBuffer.copy(DATA, 16, 10, 9, out)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("out of step");
        assertThatThrownBy(() -> PerfRingBuffer.copy(DATA, 16, 0, 17, out)).isInstanceOf(IllegalStateException.class);
    }

    /**
     * The kernel writes a loss when the buffer has room again, usually after a drain emptied it: the record before
     * the loss, which says when the loss began, was taken by the drain before.
     */
    @Test
    void aLossIsPlacedAfterTheLastRecordOfTheDrainBefore() {
        CraftedRingBuffer ring = new CraftedRingBuffer();
        SampleTally tally = new SampleTally(SampleFilter.thread(7));
        tally.countFrom(1_000);
        tally.countUntil(2_000);
        ring.write(CraftedRingBuffer.userSample(7, 2_000));
        ring.buffer.drainInto(tally, Long.MAX_VALUE);

        ring.write(ByteBuffer.allocate(40).order(ByteOrder.nativeOrder()).putInt(SampleTally.RECORD_LOST)
                .putShort((short) 0).putShort((short) 40).putLong(0).putLong(13).putInt(7).putInt(7).putLong(2_100)
                .array());
        ring.write(CraftedRingBuffer.userSample(7, 2_100));
        ring.buffer.drainInto(tally, Long.MAX_VALUE);

        assertThat(tally.user()).isEqualTo(1);
        assertThat(tally.lost()).as("lost after the window's last sample").isZero();
    }

    /**
     * The kernel refuses a record that would leave no byte free, and says how many it refused only in a loss record
     * ahead of the next record it writes. Until it writes again, a buffer too full for the largest record
     * (48 bytes) may hold a loss it has not reported, even after a drain emptied it.
     */
    @Test
    void aBufferTooFullForTheLargestRecordMayHoldALossUntilTheKernelWritesAgain() {
        CraftedRingBuffer ring = new CraftedRingBuffer();
        SampleTally tally = new SampleTally(SampleFilter.thread(7));
        tally.countFrom(0);
        for (int i = 0; i < 40; i++) {
            ring.write(CraftedRingBuffer.userSample(7, i)); // 960 of 1,024 bytes: 64 free
        }
        ring.buffer.drainInto(tally, Long.MAX_VALUE);
        assertThat(ring.buffer.mayHoldUnreportedLoss()).as("room for any record").isFalse();

        for (int i = 0; i < 41; i++) {
            ring.write(CraftedRingBuffer.userSample(7, 100 + i)); // 984 bytes: 40 free
        }
        ring.buffer.drainInto(tally, Long.MAX_VALUE);
        assertThat(ring.buffer.mayHoldUnreportedLoss()).as("no room for a throttle record").isTrue();
        assertThat(ring.buffer.lastTimeNanos()).isEqualTo(140);
        ring.buffer.drainInto(tally, Long.MAX_VALUE);
        assertThat(ring.buffer.mayHoldUnreportedLoss()).as("emptied, and nothing written since").isTrue();

        ring.write(CraftedRingBuffer.lost(13, 200));
        ring.write(CraftedRingBuffer.userSample(7, 200));
        ring.buffer.drainInto(tally, Long.MAX_VALUE);
        assertThat(ring.buffer.mayHoldUnreportedLoss()).as("written again: the loss came first").isFalse();
        assertThat(tally.lost()).isEqualTo(13);
        assertThat(tally.user()).isEqualTo(82);
    }
}
