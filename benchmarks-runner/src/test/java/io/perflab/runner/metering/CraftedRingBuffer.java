package io.perflab.runner.metering;

import com.sun.jna.Memory;
import java.nio.ByteOrder;
import java.util.concurrent.CountDownLatch;

/**
 * A perf ring buffer laid out as the kernel lays it out, in memory of this process: a control page with
 * {@code data_head} and {@code data_tail}, then {@value #DATA_SIZE} bytes of data. Tests write records and move the
 * head as the kernel would, or out of step as it should not.
 */
final class CraftedRingBuffer {

    static final int DATA_SIZE = 1024;
    private static final int DATA_HEAD = 1024;
    private static final int DATA_TAIL = 1032;
    private static final int DATA_OFFSET = 2048;

    /** Counted down each time a drain reads {@code data_tail}. */
    final CountDownLatch tailReads = new CountDownLatch(1);
    private final Memory memory = new Memory(DATA_OFFSET + DATA_SIZE) {
        @Override
        public long getLong(long offset) {
            long value = super.getLong(offset);
            if (offset == DATA_TAIL) {
                tailReads.countDown();
            }
            return value;
        }
    };
    final PerfRingBuffer buffer = PerfRingBuffer.over(memory, DATA_OFFSET, DATA_SIZE, () -> { });

    CraftedRingBuffer() {
        memory.clear();
    }

    long head() {
        return memory.getLong(DATA_HEAD);
    }

    void head(long head) {
        memory.setLong(DATA_HEAD, head);
    }

    void tail(long tail) {
        memory.setLong(DATA_TAIL, tail);
    }

    /** Writes a record at the head and moves the head past it. */
    void write(byte[] record) {
        long head = head();
        for (int i = 0; i < record.length; i++) {
            memory.setByte(DATA_OFFSET + ((head + i) & (DATA_SIZE - 1)), record[i]);
        }
        head(head + record.length);
    }

    /** A user-mode {@code PERF_RECORD_SAMPLE} of thread {@code tid} at {@code time}. */
    static byte[] userSample(int tid, long time) {
        return record(SampleTally.RECORD_SAMPLE, 2, 24, tid, time);
    }

    /** A {@code PERF_RECORD_LOST} of {@code count} records, time-stamped {@code time} ({@code sample_id_all}). */
    static byte[] lost(long count, long time) {
        return java.nio.ByteBuffer.allocate(40).order(ByteOrder.nativeOrder()).putInt(SampleTally.RECORD_LOST)
                .putShort((short) 0).putShort((short) 40).putLong(0).putLong(count).putInt(0).putInt(0).putLong(time)
                .array();
    }

    /** A record whose header says {@code size} bytes, with a thread id and time as a sample's. */
    static byte[] record(int type, int misc, int size, int tid, long time) {
        return java.nio.ByteBuffer.allocate(24).order(ByteOrder.nativeOrder()).putInt(type).putShort((short) misc)
                .putShort((short) size).putInt(tid).putInt(tid).putLong(time).array();
    }
}
