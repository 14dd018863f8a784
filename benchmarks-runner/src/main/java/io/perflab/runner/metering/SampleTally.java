package io.perflab.runner.metering;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Counts the {@code cpu-clock} samples of a perf ring buffer by the mode they interrupted, for the threads a
 * {@link SampleFilter} selects and the time stamps inside a window; apart, those of threads it cannot tell.
 *
 * <p>Records as the kernel writes them for {@code sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME} with
 * {@code sample_id_all}, each starting with {@code struct perf_event_header} ({@code u32 type, u16 misc,
 * u16 size}) and, but for a sample, ending in the sample's {@code u32 pid | u32 tid | u64 time}; sizes are
 * multiples of 8:
 * <pre>
 * PERF_RECORD_SAMPLE       (9)  header | u32 pid | u32 tid | u64 time
 * PERF_RECORD_LOST         (2)  header | u64 id  | u64 lost | u32 pid | u32 tid | u64 time
 * PERF_RECORD_THROTTLE     (5)  header | u64 time | u64 id | u64 stream_id | u32 pid | u32 tid | u64 time
 * PERF_RECORD_LOST_SAMPLES (13) header | u64 lost | u32 pid | u32 tid | u64 time
 * </pre>
 * The low three bits of {@code misc} say where the sample landed: {@code PERF_RECORD_MISC_KERNEL} (1),
 * {@code PERF_RECORD_MISC_USER} (2), hypervisor or guest (3–5, counted apart).
 *
 * <p>A full buffer loses records; the kernel says how many when it can write again, in a loss record stamped
 * with that time, before the record it then writes. The samples were lost between the buffer's previous record
 * and that time: a loss that ended before the window or began after it is not the window's, and one that may
 * reach into it counts in full, as the window's samples may be among those lost. A loss record without a time
 * (a buffer opened without {@code sample_id_all}) cannot be placed: it is noted ({@link #unplacedLoss}) rather
 * than charged to the window or left out of it. A loss the kernel has not written yet is not in the records at all:
 * the buffer tells of it ({@link PerfRingBuffer#mayHoldUnreportedLoss}).
 *
 * <p>Not thread-safe: its owner drains buffers into it from one thread at a time.
 */
final class SampleTally {

    static final int RECORD_LOST = 2;
    static final int RECORD_THROTTLE = 5;
    static final int RECORD_SAMPLE = 9;
    static final int RECORD_LOST_SAMPLES = 13;
    /** What a record's time is before the first record read, and for a record that has none. */
    static final long NO_TIME = Long.MIN_VALUE;
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
    private long unnamed;
    private long lost;
    private long throttled;
    /** The first record the kernel does not write, described; null while there is none. */
    private String malformed;
    /** The first loss whose time is not known, described; null while there is none. */
    private String unplacedLoss;
    /** The time of the last time-stamped record taken by {@link #add(ByteBuffer, int, long, long)}. */
    private long lastTimeNanos = NO_TIME;

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

    /** As {@link #add(ByteBuffer, int, long, long)}, the time of the buffer's previous record not known. */
    int add(ByteBuffer b, int length, long horizonNanos) {
        return add(b, length, horizonNanos, NO_TIME);
    }

    /**
     * As {@link #add(ByteBuffer, int)}, up to the first record time-stamped after {@code horizonNanos}: that record
     * and the records after it are left for a later call. A loss is placed after {@code previousNanos}, the time of
     * the last record taken from the same buffer before ({@link #lastTimeNanos()} after that call), or
     * {@link #NO_TIME}. Throttling counts at its time.
     *
     * @return the bytes of the records taken, which the buffer may give back to the kernel: all {@code length}
     *     unless a record after the horizon stopped it
     */
    int add(ByteBuffer b, int length, long horizonNanos, long previousNanos) {
        lastTimeNanos = previousNanos;
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
            long time = time(b, start, type, size);
            if (time != NO_TIME && time > horizonNanos) {
                break;
            }
            if (type == RECORD_SAMPLE && time != NO_TIME) {
                if (time >= fromNanos && time <= toNanos) {
                    countSample(misc, b.getInt(start + 8), b.getInt(start + 12));
                }
            } else if ((type == RECORD_LOST && size >= HEADER_BYTES + 16)
                    || (type == RECORD_LOST_SAMPLES && size >= HEADER_BYTES + 8)) {
                long count = b.getLong(start + (type == RECORD_LOST ? 16 : 8));
                if (time == NO_TIME) {
                    if (unplacedLoss == null) {
                        unplacedLoss = "a loss of " + count + " samples without a time stamp";
                    }
                } else if (time >= fromNanos && lastTimeNanos < toNanos) {
                    lost += count;
                }
            } else if (type == RECORD_THROTTLE && time >= fromNanos && time <= toNanos) {
                throttled++;
            }
            if (time != NO_TIME) {
                lastTimeNanos = time;
            }
            start += size;
        }
        return start;
    }

    /** Counts a sample of the window by its mode, or as unnamed where the filter cannot tell its thread. */
    private void countSample(int misc, int pid, int tid) {
        if (filter.counts(pid, tid)) {
            switch (misc & CPUMODE_MASK) {
                case MISC_USER -> user++;
                case MISC_KERNEL -> kernel++;
                default -> other++;
            }
        } else if (filter.unknown(pid, tid)) {
            unnamed++;
        }
    }

    /**
     * The time stamp of the record at {@code start}, or {@link #NO_TIME}: a sample's own; a throttle's first
     * field; a loss's from its {@code sample_id}, the record's last 8 bytes when it has one.
     */
    private static long time(ByteBuffer b, int start, int type, int size) {
        return switch (type) {
            case RECORD_SAMPLE -> size >= HEADER_BYTES + 16 ? b.getLong(start + 16) : NO_TIME;
            case RECORD_THROTTLE -> size >= HEADER_BYTES + 8 ? b.getLong(start + 8) : NO_TIME;
            case RECORD_LOST -> size >= HEADER_BYTES + 32 ? b.getLong(start + size - 8) : NO_TIME;
            case RECORD_LOST_SAMPLES -> size >= HEADER_BYTES + 24 ? b.getLong(start + size - 8) : NO_TIME;
            default -> NO_TIME;
        };
    }

    /** The time of the last time-stamped record taken by the last {@link #add} call, or the time it was given. */
    long lastTimeNanos() {
        return lastTimeNanos;
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

    /**
     * Samples, in any mode, of threads the filter could not tell selected or not ({@link SampleFilter#unknown}): in
     * no other count.
     */
    long unnamed() {
        return unnamed;
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

    /**
     * The first loss read whose time is not known, described ({@code a loss of 12 samples without a time stamp});
     * empty while there is none. Its samples are in no count: they may be the window's or not.
     */
    Optional<String> unplacedLoss() {
        return Optional.ofNullable(unplacedLoss);
    }
}
