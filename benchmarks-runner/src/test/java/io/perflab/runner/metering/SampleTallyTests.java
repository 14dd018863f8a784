package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SampleTallyTests {

    private static final int KERNEL = 1;
    private static final int USER = 2;
    private static final int HYPERVISOR = 3;

    @Test
    void countsSamplesOfTheSelectedThreadsByModeInsideTheWindow() {
        SampleTally tally = new SampleTally(SampleFilter.process(100, Set.of(105)));
        tally.countFrom(1_000);
        tally.countUntil(2_000);
        ByteBuffer records = records(
                sample(USER, 100, 101, 1_000),
                sample(USER, 100, 102, 1_500),
                sample(KERNEL, 100, 101, 2_000),
                sample(KERNEL, 100, 105, 1_200), // a JIT compiler thread
                sample(USER, 200, 201, 1_300), // another process
                sample(USER, 100, 101, 999), // before the window
                sample(KERNEL, 100, 101, 2_001), // after it
                sample(HYPERVISOR, 100, 101, 1_400));

        tally.add(records, records.limit());

        assertThat(tally.user()).isEqualTo(2);
        assertThat(tally.kernel()).isEqualTo(1);
        assertThat(tally.other()).isEqualTo(1);
    }

    @Test
    void addsUpLostSamplesAndThrottlingAndSkipsOtherRecords() {
        SampleTally tally = new SampleTally(SampleFilter.thread(7));
        tally.countFrom(0);
        ByteBuffer records = records(lostAt(12, 1), throttle(), comm(), sample(KERNEL, 1, 7, 5), lostAt(3, 6));

        tally.add(records, records.limit());

        assertThat(tally.lost()).isEqualTo(15);
        assertThat(tally.throttled()).isEqualTo(1);
        assertThat(tally.kernel()).isEqualTo(1);
    }

    @Test
    void nothingCountsBeforeTheWindowIsKnownAndATruncatedRecordIsIgnored() {
        SampleTally tally = new SampleTally(SampleFilter.thread(7));
        ByteBuffer records = records(sample(USER, 1, 7, 5), sample(USER, 1, 7, 6));

        tally.add(records, records.limit());
        assertThat(tally.user()).as("countFrom not called").isZero();

        tally.countFrom(0);
        tally.add(records, records.limit() - 1);
        assertThat(tally.user()).isEqualTo(1);
    }

    /**
     * Before the window's start is known a drain takes the records up to the first sample after its horizon, and
     * the samples lost or throttled then are the time before the window's.
     */
    @Test
    void beforeTheWindowTakesRecordsUpToTheHorizonAndCountsNoLoss() {
        SampleTally tally = new SampleTally(SampleFilter.thread(7));
        ByteBuffer records = records(sample(USER, 1, 7, 5), lostAt(40, 8), throttle(), lostAt(2, 20),
                sample(USER, 1, 7, 20), sample(KERNEL, 1, 7, 30));

        int taken = tally.add(records, records.limit(), 10);

        assertThat(taken).as("up to the first record after the horizon").isEqualTo(24 + 40 + 32);
        assertThat(tally.lost()).isZero();
        assertThat(tally.throttled()).isZero();

        tally.countFrom(15);
        records.position(taken);
        ByteBuffer rest = records.slice().order(records.order());
        assertThat(tally.add(rest, rest.limit(), Long.MAX_VALUE)).isEqualTo(rest.limit());
        assertThat(tally.user()).isEqualTo(1);
        assertThat(tally.kernel()).isEqualTo(1);
    }

    /**
     * The kernel writes a loss when it can write again, stamped with that time ({@code sample_id_all}): the samples
     * were lost after the buffer's previous record and before that time. A loss that ended before the window, or
     * began after it, is not the window's; one that may reach into it counts in full.
     */
    @Test
    void aLossCountsByItsTimeWhereItMayReachIntoTheWindow() {
        SampleTally tally = new SampleTally(SampleFilter.thread(7));
        tally.countFrom(1_000);
        tally.countUntil(2_000);
        ByteBuffer records = records(
                sample(USER, 1, 7, 900), lostAt(5, 950), // ended before the window
                sample(USER, 1, 7, 990), lostAt(7, 1_100), // began before it, ended in it
                sample(USER, 1, 7, 1_500), lostAt(11, 1_600), // in it
                sample(USER, 1, 7, 1_900), lostAt(17, 2_050), // began in it, ended after it
                sample(USER, 1, 7, 2_000), lostAt(13, 2_100), // began after its last sample
                throttleAt(2_200), throttleAt(950), throttleAt(1_200));

        tally.add(records, records.limit());

        assertThat(tally.lost()).isEqualTo(7 + 11 + 17);
        assertThat(tally.throttled()).isEqualTo(1);
        assertThat(tally.unplacedLoss()).isEmpty();
    }

    /** The record before a loss may have been read in an earlier drain: its time is carried over. */
    @Test
    void aLossIsPlacedAfterTheRecordOfAnEarlierDrain() {
        SampleTally tally = new SampleTally(SampleFilter.thread(7));
        tally.countFrom(1_000);
        tally.countUntil(2_000);
        ByteBuffer first = records(sample(USER, 1, 7, 2_000));
        ByteBuffer second = records(lostAt(13, 2_100), sample(USER, 1, 7, 2_100));

        tally.add(first, first.limit(), Long.MAX_VALUE, Long.MIN_VALUE);
        tally.add(second, second.limit(), Long.MAX_VALUE, tally.lastTimeNanos());

        assertThat(tally.lost()).isZero();
        assertThat(tally.lastTimeNanos()).isEqualTo(2_100);
    }

    /** A loss without a time may be the window's or not: it is noted, and not counted either way. */
    @Test
    void aLossWithoutATimeIsNotedAsUnplaced() {
        SampleTally tally = new SampleTally(SampleFilter.thread(7));
        tally.countFrom(1_000);
        ByteBuffer records = records(sample(USER, 1, 7, 1_500), lost(12), sample(USER, 1, 7, 1_600));

        tally.add(records, records.limit());

        assertThat(tally.lost()).isZero();
        assertThat(tally.unplacedLoss()).contains("a loss of 12 samples without a time stamp");
    }

    /**
     * Samples of a thread the filter cannot tell (one that ended before it could be named) are counted apart, in the
     * window only, and in no mode's count.
     */
    @Test
    void samplesOfThreadsTheFilterCannotTellAreCountedApart() {
        SampleFilter filter = new SampleFilter() {
            @Override
            public boolean counts(int pid, int tid) {
                return pid == 1 && tid == 7;
            }

            @Override
            public boolean unknown(int pid, int tid) {
                return pid == 1 && tid == 8;
            }
        };
        SampleTally tally = new SampleTally(filter);
        tally.countFrom(1_000);
        tally.countUntil(2_000);
        ByteBuffer records = records(sample(USER, 1, 7, 1_100), sample(USER, 1, 8, 1_200),
                sample(KERNEL, 1, 8, 1_300), sample(USER, 1, 9, 1_400), sample(USER, 1, 8, 999),
                sample(USER, 1, 8, 2_001));

        tally.add(records, records.limit());

        assertThat(tally.user()).isEqualTo(1);
        assertThat(tally.kernel()).isZero();
        assertThat(tally.unnamed()).isEqualTo(2);
    }

    /** A record of size 0 would be read again at every drain, and the buffer behind it never emptied. */
    @Test
    void aMalformedRecordGivesTheRestOfTheBatchBack() {
        SampleTally tally = new SampleTally(SampleFilter.thread(7));
        byte[] sizeZero = ByteBuffer.allocate(24).order(ByteOrder.nativeOrder()).putInt(SampleTally.RECORD_SAMPLE)
                .putShort((short) USER).putShort((short) 0).array();
        ByteBuffer records = records(sample(USER, 1, 7, 5), sizeZero);

        assertThat(tally.add(records, records.limit(), 10)).isEqualTo(records.limit());
    }

    private static ByteBuffer records(byte[]... records) {
        int size = 0;
        for (byte[] r : records) {
            size += r.length;
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
        for (byte[] r : records) {
            b.put(r);
        }
        return b.flip();
    }

    private static byte[] sample(int mode, int pid, int tid, long time) {
        return record(SampleTally.RECORD_SAMPLE, mode, 24).putInt(pid).putInt(tid).putLong(time).array();
    }

    private static byte[] lost(long count) {
        return record(SampleTally.RECORD_LOST, 0, 24).putLong(99).putLong(count).array();
    }

    /** PERF_RECORD_LOST with {@code sample_id_all}: header, id, lost, then pid, tid and time. */
    private static byte[] lostAt(long count, long time) {
        return record(SampleTally.RECORD_LOST, 0, 40).putLong(99).putLong(count).putInt(1).putInt(7).putLong(time)
                .array();
    }

    private static byte[] throttleAt(long time) {
        return record(SampleTally.RECORD_THROTTLE, 0, 32).putLong(time).putLong(2).putLong(3).array();
    }

    private static byte[] throttle() {
        return record(SampleTally.RECORD_THROTTLE, 0, 32).putLong(1).putLong(2).putLong(3).array();
    }

    /** PERF_RECORD_COMM: header, pid, tid, a name padded to 8 bytes. */
    private static byte[] comm() {
        return record(3, 0, 32).putInt(1).putInt(7).put("java\0\0\0\0".getBytes()).putLong(0).array();
    }

    private static ByteBuffer record(int type, int misc, int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.nativeOrder()).putInt(type).putShort((short) misc)
                .putShort((short) size);
    }
}
