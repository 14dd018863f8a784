package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OutputTailTests {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void aLineWithoutBreakIsReadWithoutHoldingItAndItsStartIsKeptCut() throws InterruptedException {
        long lineBytes = 256L * 1024 * 1024;
        List<String> claimed = Collections.synchronizedList(new ArrayList<>());
        long[] allocatedAtLine = new long[3];
        InputStream stream = new SequenceInputStream(Collections.enumeration(List.of(text("first\n"),
                new RepeatedByte('x', lineBytes), text("\nlast words\n"))));

        OutputTail tail = OutputTail.start(stream, "test-stdout", line -> {
            // the predicate runs on the reader's thread: what that thread allocated shows what reading a line cost
            allocatedAtLine[claimed.size()] = THREADS.getCurrentThreadAllocatedBytes();
            claimed.add(line.length() > 20 ? line.substring(0, 20) + "… (" + line.length() + " chars)" : line);
            return false;
        });
        tail.awaitEnd(60, TimeUnit.SECONDS);

        assertThat(claimed).containsExactly("first", "xxxxxxxxxxxxxxxxxxxx… (" + OutputTail.MAX_CLAIMED_LINE_CHARS
                + " chars)", "last words");
        assertThat(allocatedAtLine[1] - allocatedAtLine[0]).as("bytes allocated to read a line of %d bytes",
                lineBytes).isLessThan(32L * 1024 * 1024);
        assertThat(tail.text()).isEqualTo("first\n" + "x".repeat(OutputTail.MAX_LINE_CHARS) + "…\nlast words");
    }

    @Test
    void aTailThatClaimsNothingCutsAnEndlessLineAsItCutsALongOne() throws InterruptedException {
        OutputTail tail = OutputTail.start(new SequenceInputStream(text("error: "), new RepeatedByte('y', 5_000_000)),
                "test-stderr");
        tail.awaitEnd(30, TimeUnit.SECONDS);

        assertThat(tail.text()).isEqualTo(OutputTail.cut("error: " + "y".repeat(OutputTail.MAX_LINE_CHARS)));
    }

    @Test
    void linesEndAsReadLineEndsThemAndClaimedOrBlankOnesAreNotKept() throws InterruptedException {
        List<String> claimed = new ArrayList<>();
        // one byte at a time, so that a \r\n is also split between two reads
        InputStream stream = new OneByteAtATime(text("a\r\nb\rc\n\n  \nPERFLAB x\r\r\nd"));

        OutputTail tail = OutputTail.start(stream, "test-stdout", line -> {
            claimed.add(line);
            return line.startsWith("PERFLAB");
        });
        tail.awaitEnd(10, TimeUnit.SECONDS);

        assertThat(claimed).containsExactly("a", "b", "c", "", "  ", "PERFLAB x", "", "d");
        assertThat(tail.text()).isEqualTo("a\nb\nc\nd");
    }

    @Test
    void onlyTheLastLinesAreKept() throws InterruptedException {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= OutputTail.MAX_LINES + 5; i++) {
            text.append("line ").append(i).append('\n');
        }

        OutputTail tail = OutputTail.start(text(text.toString()), "test-stderr");
        tail.awaitEnd(10, TimeUnit.SECONDS);

        assertThat(tail.text().lines()).hasSize(OutputTail.MAX_LINES).first().isEqualTo("line 6");
    }

    private static InputStream text(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code length} copies of one byte, made as they are read. */
    private static final class RepeatedByte extends InputStream {
        private final byte value;
        private long left;

        RepeatedByte(char value, long length) {
            this.value = (byte) value;
            this.left = length;
        }

        @Override
        public int read() {
            if (left == 0) {
                return -1;
            }
            left--;
            return value;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            if (left == 0) {
                return -1;
            }
            int n = (int) Math.min(length, left);
            Arrays.fill(buffer, offset, offset + n, value);
            left -= n;
            return n;
        }
    }

    /** A stream that hands out one byte per read, as a slow pipe may. */
    private static final class OneByteAtATime extends InputStream {
        private final InputStream in;

        OneByteAtATime(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            return in.read();
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            return length == 0 ? 0 : in.read(buffer, offset, 1);
        }
    }
}
