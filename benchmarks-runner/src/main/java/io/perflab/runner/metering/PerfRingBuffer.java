package io.perflab.runner.metering;

import com.sun.jna.Pointer;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The ring buffer of a sampling perf event, mapped into this process: a control page
 * ({@code struct perf_event_mmap_page}) whose {@code data_head} (offset 1024) the kernel advances past each whole
 * record it writes, and whose {@code data_tail} (1032) the reader advances to free the space it has read; then
 * the data pages ({@code data_offset} 1040, {@code data_size} 1048, Linux ≥ 4.1). Head and tail only grow; a
 * record's position is their value modulo the data size, so a record may wrap around the end.
 *
 * <p>The kernel writes a record only where it leaves a byte free ({@code CIRC_SPACE} in
 * {@code kernel/events/ring_buffer.c}); it counts the records it refuses and writes their number, in a
 * {@code PERF_RECORD_LOST}, just before the next record it writes, which needs room for both. Nothing else tells
 * of them: the control page holds no count of lost records. A buffer that is never written to again (sampling
 * stopped, or its CPU idle since) keeps such a loss to itself ({@link #mayHoldUnreportedLoss}).
 */
final class PerfRingBuffer implements AutoCloseable {

    private static final int DATA_HEAD = 1024;
    private static final int DATA_TAIL = 1032;
    private static final int DATA_OFFSET = 1040;
    private static final int DATA_SIZE = 1048;
    /**
     * The largest record a {@code cpu-clock} event writes with {@code sample_id_all}: a throttle or unthrottle
     * record (header, time, id, stream id, then pid, tid and time).
     */
    static final int LARGEST_RECORD_BYTES = 48;

    private final Pointer base;
    /** Gives the mapping back. */
    private final Runnable unmap;
    private final long dataOffset;
    private final long dataSize;
    /** Reused for every drain, so that draining allocates nothing in the process it measures. */
    private final byte[] scratch;
    private final ByteBuffer records;
    private final DataArea data = this::readData;
    /** The time of the last time-stamped record drained, after which a loss record's samples were lost. */
    private long lastTimeNanos = SampleTally.NO_TIME;
    /** {@code data_head} as the last drain read it: the kernel has written since where it moved. */
    private long lastHead;
    /** Whether the kernel may have refused records since the last one it wrote, and not yet said so. */
    private boolean mayHoldUnreportedLoss;
    private boolean closed;

    private PerfRingBuffer(Pointer base, Runnable unmap, long dataOffset, long dataSize) {
        this.base = base;
        this.unmap = unmap;
        this.dataOffset = dataOffset;
        this.dataSize = dataSize;
        this.scratch = new byte[Math.toIntExact(dataSize)];
        this.records = ByteBuffer.wrap(scratch).order(ByteOrder.nativeOrder());
    }

    /**
     * Maps the buffer of event {@code fd}.
     *
     * @param dataPages pages of data, a power of two
     */
    static PerfRingBuffer map(int fd, int dataPages) {
        if (Integer.bitCount(dataPages) != 1) {
            throw new IllegalArgumentException("data pages must be a power of two, got " + dataPages);
        }
        long page = PerfEvents.pageSize();
        long length = (1L + dataPages) * page;
        Pointer base = PerfEvents.map(fd, length);
        long offset = base.getLong(DATA_OFFSET);
        long size = base.getLong(DATA_SIZE);
        // kernels before 4.1 leave both 0: the data follow the control page
        return new PerfRingBuffer(base, () -> PerfEvents.unmap(base, length), offset == 0 ? page : offset,
                size == 0 ? dataPages * page : size);
    }

    /**
     * A buffer laid out as the kernel lays it out, in memory {@code base} that is not a perf event's: the control
     * page's {@code data_head} and {@code data_tail}, then {@code dataSize} bytes of data at {@code dataOffset}.
     * {@link #close} calls {@code release}.
     */
    static PerfRingBuffer over(Pointer base, long dataOffset, long dataSize, Runnable release) {
        return new PerfRingBuffer(base, release, dataOffset, dataSize);
    }

    /** Bytes of record data the buffer holds. */
    long dataSize() {
        return dataSize;
    }

    /**
     * Counts the records written since the last call into {@code tally}, up to the first sample time-stamped after
     * {@code horizonNanos} ({@link SampleTally#add(ByteBuffer, int, long, long)}), and gives their space back.
     */
    void drainInto(SampleTally tally, long horizonNanos) {
        long head = base.getLong(DATA_HEAD);
        // the records before head were written before head was: read them after reading head
        VarHandle.acquireFence();
        long tail = base.getLong(DATA_TAIL);
        int count = copy(data, dataSize, tail, head, scratch);
        if (head != lastHead) {
            // the tail stood still since the last drain and the head only grew: a record refused since then left
            // at most its size free now, and a loss from before then came in a loss record ahead of those read now
            mayHoldUnreportedLoss = dataSize - (head - tail) <= LARGEST_RECORD_BYTES;
            lastHead = head;
        }
        int taken = tally.add(records, count, horizonNanos, lastTimeNanos);
        lastTimeNanos = tally.lastTimeNanos();
        // done reading before the kernel may overwrite
        VarHandle.fullFence();
        base.setLong(DATA_TAIL, tail + taken);
    }

    /**
     * Whether the kernel may have refused records it has not reported yet: when it last wrote, the buffer had no
     * room left for its largest record ({@value #LARGEST_RECORD_BYTES} bytes). They were refused after the last
     * record drained ({@link #lastTimeNanos()}); how many the kernel says only when it next writes here.
     */
    boolean mayHoldUnreportedLoss() {
        return mayHoldUnreportedLoss;
    }

    /** The time of the last time-stamped record drained, or {@link SampleTally#NO_TIME} before the first. */
    long lastTimeNanos() {
        return lastTimeNanos;
    }

    private void readData(long offset, byte[] into, int at, int count) {
        base.read(dataOffset + offset, into, at, count);
    }

    /** Where {@link #copy} reads the data area. */
    @FunctionalInterface
    interface DataArea {
        void read(long offset, byte[] into, int at, int count);
    }

    /**
     * Copies the bytes between {@code tail} and {@code head} of a data area of {@code size} bytes (a power of
     * two) to the start of {@code out}, in order, unwrapped.
     *
     * @return how many bytes were copied
     */
    static int copy(DataArea data, long size, long tail, long head, byte[] out) {
        long available = head - tail;
        if (available < 0 || available > size || available > out.length) {
            throw new IllegalStateException("perf ring buffer out of step: head " + head + ", tail " + tail
                    + ", size " + size);
        }
        int start = (int) (tail & (size - 1));
        int first = (int) Math.min(available, size - start);
        data.read(start, out, 0, first);
        if (first < available) {
            data.read(0, out, first, (int) available - first);
        }
        return (int) available;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            unmap.run();
        }
    }
}
