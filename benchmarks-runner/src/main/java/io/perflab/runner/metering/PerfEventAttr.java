package io.perflab.runner.metering;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The {@code struct perf_event_attr} that {@code perf_event_open(2)} reads, for the events the meter opens,
 * laid out as {@code PERF_ATTR_SIZE_VER5} (112 bytes, Linux ≥ 4.1). Offsets in bytes:
 * <pre>
 *   0 type (u32)          4 size (u32)           8 config (u64)
 *  16 sample_period (u64) 24 sample_type (u64)  32 read_format (u64)
 *  40 flags (u64 bit field: 0 disabled, 1 inherit, 6 exclude_hv, 7 exclude_idle, 18 sample_id_all,
 *     25 use_clockid)
 *  48 wakeup_events (u32) 52 bp_type (u32)  56 config1  64 config2  72 branch_sample_type
 *  80 sample_regs_user    88 sample_stack_user (u32)  92 clockid (s32)
 *  96 sample_regs_intr   104 aux_watermark (u32)     108 sample_max_stack (u16)  110 reserved (u16)
 * </pre>
 *
 * @param type {@code PERF_TYPE_*}
 * @param config the event within its type (for a tracepoint, its id in tracefs)
 * @param samplePeriod for a sampling event, the events between samples (nanoseconds for {@code cpu-clock}); 0
 *     for a counter
 * @param sampleType {@code PERF_SAMPLE_*} bits: what a sample record holds
 * @param readFormat {@code PERF_FORMAT_*} bits: what a {@code read(2)} of a counter returns after its value
 * @param flags the bit field at offset 40
 * @param clockId the clock of the samples' time stamps when {@link #USE_CLOCKID} is set
 * @see <a href="https://man7.org/linux/man-pages/man2/perf_event_open.2.html">perf_event_open(2)</a>
 */
record PerfEventAttr(int type, long config, long samplePeriod, long sampleType, long readFormat, long flags,
                     int clockId) {

    static final int SIZE = 112;

    static final int TYPE_HARDWARE = 0;
    static final int TYPE_SOFTWARE = 1;
    static final int TYPE_TRACEPOINT = 2;
    static final long HW_CPU_CYCLES = 0;
    static final long HW_INSTRUCTIONS = 1;
    static final long SW_CPU_CLOCK = 0;
    static final long SW_TASK_CLOCK = 1;

    /** After the value: the time the event was enabled, then the time it was counting, in nanoseconds. */
    static final long FORMAT_TOTAL_TIMES = 1L | 1L << 1;

    static final long SAMPLE_TID = 1L << 1;
    static final long SAMPLE_TIME = 1L << 2;

    static final long DISABLED = 1L;
    static final long INHERIT = 1L << 1;
    static final long EXCLUDE_HV = 1L << 6;
    static final long EXCLUDE_IDLE = 1L << 7;
    static final long SAMPLE_ID_ALL = 1L << 18;
    static final long USE_CLOCKID = 1L << 25;

    /** The clock of {@link System#nanoTime()} on Linux. */
    static final int CLOCK_MONOTONIC = 1;

    /**
     * {@code cpu-clock} sampled every {@code periodNanos} of a CPU's time, each sample holding the pid and tid of
     * the thread it interrupted and a {@code CLOCK_MONOTONIC} time stamp; created disabled, idle time left out.
     * The records of lost samples and throttling carry the same time stamp ({@code sample_id_all}), so that a
     * window can tell its own losses from its neighbours'.
     */
    static PerfEventAttr cpuClockSampling(long periodNanos) {
        return new PerfEventAttr(TYPE_SOFTWARE, SW_CPU_CLOCK, periodNanos, SAMPLE_TID | SAMPLE_TIME, 0,
                DISABLED | EXCLUDE_HV | EXCLUDE_IDLE | SAMPLE_ID_ALL | USE_CLOCKID, CLOCK_MONOTONIC);
    }

    /** A counter of tracepoint {@code id} that threads created later by the counted thread add to; enabled. */
    static PerfEventAttr tracepointCounter(long id) {
        return new PerfEventAttr(TYPE_TRACEPOINT, id, 0, 0, 0, INHERIT, 0);
    }

    /**
     * A counter of event {@code config} of {@code type} ({@code PERF_TYPE_HARDWARE}: {@link #HW_INSTRUCTIONS},
     * {@link #HW_CPU_CYCLES}) in user and kernel mode, the hypervisor left out, that threads created later by the
     * counted thread add to; enabled. A read gives the times it was enabled and counting beside the value, so that a
     * count the kernel multiplexed with other events on too few hardware counters can be scaled up as
     * {@code perf stat} scales it.
     */
    static PerfEventAttr scaledCounter(int type, long config) {
        return new PerfEventAttr(type, config, 0, 0, FORMAT_TOTAL_TIMES, INHERIT | EXCLUDE_HV, 0);
    }

    /** The bytes the kernel reads, in this machine's byte order. */
    byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.nativeOrder());
        b.putInt(0, type);
        b.putInt(4, SIZE);
        b.putLong(8, config);
        b.putLong(16, samplePeriod);
        b.putLong(24, sampleType);
        b.putLong(32, readFormat);
        b.putLong(40, flags);
        b.putInt(92, clockId);
        return b.array();
    }
}
