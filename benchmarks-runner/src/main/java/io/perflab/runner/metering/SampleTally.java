package io.perflab.runner.metering;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Counts the {@code cpu-clock} samples of a perf ring buffer by the mode they interrupted, for the threads a
 * {@link SampleFilter} selects and the time stamps inside a window.
 *
 * <p>Records as the kernel writes them for {@code sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME}, each
 * starting with {@code struct perf_event_header} ({@code u32 type, u16 misc, u16 size}); sizes are multiples of 8:
 * <pre>
 * PERF_RECORD_SAMPLE   (9)  header | u32 pid | u32 tid | u64 time
 * PERF_RECORD_LOST     (2)  header | u64 id  | u64 lost
 * PERF_RECORD_THROTTLE (5)  header | u64 time | u64 id | u64 stream_id
 * </pre>
 * The low three bits of {@code misc} say where the sample landed: {@code PERF_RECORD_MISC_KERNEL} (1),
 * {@code PERF_RECORD_MISC_USER} (2), hypervisor or guest (3–5, counted apart).
 *
 * <p>Not thread-safe: its owner drains buffers into it from one thread at a time.
 */
final class SampleTally {

    static final int RECORD_LOST = 2;
    static final int RECORD_THROTTLE = 5;
    static final int RECORD_SAMPLE = 9;
    static final int HEADER_BYTES = 8;
    private static final int CPUMODE_MASK = 7;
    private static final int MISC_KERNEL = 1;
    private static final int MISC_USER = 2;

    private final SampleFilter filter;
    private long fromNanos = Long.MAX_VALUE;
    private long toNanos = Long.MAX_VALUE;
    private long user;
    private long kernel;
    private long other;
    private long lost;
    private long throttled;
    /** The first record the kernel does not write, described; null while there is none. */
    private String malformed;

    SampleTally(SampleFilter filter) {
        this.filter = filter;
    }

    /** Samples count from {@code nanoTime} ({@link System#nanoTime()}'s clock) on; none count before this call. */
    void countFrom(long nanoTime) {
        fromNanos = nanoTime;
    }

    /** Samples after {@code nanoTime} no longer count. */
    void countUntil(long nanoTime) {
        toNanos = nanoTime;
    }

    /**
     * Counts the whole records among the first {@code length} bytes of {@code b} (in its byte order, which must
     * be this machine's); a truncated record at the end is ignored, and noted as {@link #malformed}. Reads by
     * absolute index and allocates nothing.
     */
    void add(ByteBuffer b, int length) {
        add(b, length, Long.MAX_VALUE);
    }

    /**
     * As {@link #add(ByteBuffer, int)}, up to the first sample time-stamped after {@code horizonNanos}: that sample
     * and the records after it are left for a later call. Lost samples and throttling count only once the window's
     * start is known ({@link #countFrom}): before it they were the time before the window's.
     *
     * @return the bytes of the records taken, which the buffer may give back to the kernel: all {@code length}
     *     unless a sample after the horizon stopped it
     */
    int add(ByteBuffer b, int length, long horizonNanos) {
        boolean counting = fromNanos != Long.MAX_VALUE;
        int start = 0;
        while (length - start >= HEADER_BYTES) {
            int type = b.getInt(start);
            int misc = Short.toUnsignedInt(b.getShort(start + 4));
            int size = Short.toUnsignedInt(b.getShort(start + 6));
            if (size < HEADER_BYTES || size > length - start) {
                if (malformed == null) {
                    malformed = "a record of type " + type + " and size " + size + " at byte " + start + " of "
                            + length + " read";
                }
                return length; // not a record the kernel writes: what follows cannot be read, and is dropped
            }
            if (type == RECORD_SAMPLE && size >= HEADER_BYTES + 16) {
                int pid = b.getInt(start + 8);
                int tid = b.getInt(start + 12);
                long time = b.getLong(start + 16);
                if (time > horizonNanos) {
                    break;
                }
                if (time >= fromNanos && time <= toNanos && filter.counts(pid, tid)) {
                    switch (misc & CPUMODE_MASK) {
                        case MISC_USER -> user++;
                        case MISC_KERNEL -> kernel++;
                        default -> other++;
                    }
                }
            } else if (type == RECORD_LOST && size >= HEADER_BYTES + 16) {
                if (counting) {
                    lost += b.getLong(start + 16);
                }
            } else if (type == RECORD_THROTTLE && counting) {
                throttled++;
            }
            start += size;
        }
        return start;
    }

    long user() {
        return user;
    }

    long kernel() {
        return kernel;
    }

    /** Samples in hypervisor or guest mode. */
    long other() {
        return other;
    }

    /** Samples the kernel could not write because the buffer was full, of any thread. */
    long lost() {
        return lost;
    }

    /** Times the kernel throttled sampling for taking too much CPU time. */
    long throttled() {
        return throttled;
    }

    /**
     * The first record read that the kernel does not write (its size below a header's or beyond the bytes read),
     * described; empty while there is none. The records read after it in the same call were dropped uncounted.
     */
    Optional<String> malformed() {
        return Optional.ofNullable(malformed);
    }
}
