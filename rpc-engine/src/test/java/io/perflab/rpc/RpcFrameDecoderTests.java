package io.perflab.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RpcFrameDecoderTests {

    private static final int MAX = 1024;

    private final UnpooledByteBufAllocator alloc = TestFrames.trackingAllocator();
    private final List<String> reasons = new ArrayList<>();
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger decoderLog = (Logger) LoggerFactory.getLogger(RpcFrameDecoder.class);
    private EmbeddedChannel channel;

    @BeforeEach
    void setUp() {
        logged.start();
        decoderLog.addAppender(logged);
        channel = new EmbeddedChannel();
        channel.config().setAllocator(alloc);
        channel.pipeline().addLast(new RpcFrameDecoder(WireFormat.MIN_REQUEST_FRAME_BYTES, MAX, true, reasons::add));
    }

    @AfterEach
    void tearDown() {
        decoderLog.detachAppender(logged);
        channel.finishAndReleaseAll();
    }

    @Test
    void decodesFramesFedOneByteAtATime() {
        byte[] first = TestFrames.addRequest(1, 2, 3);
        byte[] second = TestFrames.request(2, 100, "Calculator.Echo", new byte[300]);
        TestFrames.feedOneByteAtATime(channel, alloc, TestFrames.concat(TestFrames.preamble(), first, second));

        ByteBuf a = channel.readInbound();
        ByteBuf b = channel.readInbound();
        assertThat(ByteBufUtil.getBytes(a)).isEqualTo(java.util.Arrays.copyOfRange(first, 4, first.length));
        assertThat(ByteBufUtil.getBytes(b)).isEqualTo(java.util.Arrays.copyOfRange(second, 4, second.length));
        a.release();
        b.release();
        assertThat(channel.isOpen()).isTrue();
        assertThat(reasons).isEmpty();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void frameOfExactlyTheLimitIsAccepted() {
        byte[] frame = TestFrames.request(1, 0, "S.M", new byte[MAX - 10 - 3]);
        channel.writeInbound(io.netty.buffer.Unpooled.wrappedBuffer(TestFrames.concat(TestFrames.preamble(), frame)));
        ByteBuf decoded = channel.readInbound();
        assertThat(decoded.readableBytes()).isEqualTo(MAX);
        decoded.release();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void rejectsFrameLongerThanLimitWithoutAllocatingIt() {
        long peak = TestFrames.feedOneByteAtATime(channel, alloc,
                TestFrames.concat(TestFrames.preamble(), TestFrames.lengthOnly(60 * 1024 * 1024), new byte[100]));

        assertClosedWithOneLogLine("frame length 62914560 outside [10, 1024]");
        assertThat(peak).isLessThan(1024);
    }

    @Test
    void rejectsNegativeLength() {
        TestFrames.feedOneByteAtATime(channel, alloc,
                TestFrames.concat(TestFrames.preamble(), TestFrames.lengthOnly(-5)));
        assertClosedWithOneLogLine("frame length -5 outside");
    }

    @Test
    void rejectsLengthShorterThanTheHeader() {
        TestFrames.feedOneByteAtATime(channel, alloc,
                TestFrames.concat(TestFrames.preamble(), TestFrames.lengthOnly(9), new byte[9]));
        assertClosedWithOneLogLine("frame length 9 outside");
    }

    @Test
    void rejectsHttpClientAtTheFirstByte() {
        byte[] http = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        TestFrames.feedOneByteAtATime(channel, alloc, http);
        assertClosedWithOneLogLine("not a PerfLab RPC client: byte 0 of the preamble is 0x47");
    }

    @Test
    void rejectsWrongProtocolVersion() {
        TestFrames.feedOneByteAtATime(channel, alloc, new byte[] {'P', 'R', 'P', 'C', 9});
        assertClosedWithOneLogLine("byte 4 of the preamble is 0x09, expected 0x01");
    }

    @Test
    void decodesNothingAfterABadLengthInTheSameRead() {
        channel.writeInbound(io.netty.buffer.Unpooled.wrappedBuffer(TestFrames.concat(TestFrames.preamble(),
                TestFrames.lengthOnly(Integer.MAX_VALUE), TestFrames.addRequest(1, 1, 1))));
        assertClosedWithOneLogLine("frame length 2147483647 outside");
    }

    @Test
    void clientSideDecoderNeedsNoPreamble() {
        EmbeddedChannel client = new EmbeddedChannel(
                new RpcFrameDecoder(WireFormat.MIN_RESPONSE_FRAME_BYTES, MAX, false, reasons::add));
        byte[] response = {0, 0, 0, 6, 0, 0, 0, 7, 0, 42};
        for (byte b : response) {
            client.writeInbound(io.netty.buffer.Unpooled.wrappedBuffer(new byte[] {b}));
        }
        ByteBuf frame = client.readInbound();
        assertThat(frame.readInt()).isEqualTo(7);
        assertThat(frame.readByte()).isEqualTo((byte) 0);
        assertThat(frame.readByte()).isEqualTo((byte) 42);
        frame.release();
        assertThat(client.finish()).isFalse();
    }

    private void assertClosedWithOneLogLine(String reasonPrefix) {
        assertThat(channel.isOpen()).isFalse();
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(reasons).hasSize(1);
        assertThat(reasons.get(0)).contains(reasonPrefix);
        assertThat(logged.list).hasSize(1);
        assertThat(logged.list.get(0).getLevel()).isEqualTo(Level.WARN);
        assertThat(logged.list.get(0).getFormattedMessage()).contains("closing connection").contains(reasonPrefix);
    }
}
