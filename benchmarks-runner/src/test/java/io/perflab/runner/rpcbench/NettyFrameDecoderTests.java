package io.perflab.runner.rpcbench;

import static io.perflab.runner.rpcbench.NettyTestFrames.bytesOf;
import static io.perflab.runner.rpcbench.NettyTestFrames.concat;
import static io.perflab.runner.rpcbench.NettyTestFrames.frame;
import static io.perflab.runner.rpcbench.NettyTestFrames.frameOfInts;
import static io.perflab.runner.rpcbench.NettyTestFrames.lengthOnly;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NettyFrameDecoderTests {

    private static final int MAX = 1024;

    private final UnpooledByteBufAllocator alloc = NettyTestFrames.trackingAllocator();
    private final NettyTestFrames.CaughtExceptions exceptions = new NettyTestFrames.CaughtExceptions();
    private final CapturedLog logged = CapturedLog.of(NettyFrameDecoder.class);
    private EmbeddedChannel channel;

    @BeforeEach
    void setUp() {
        channel = new EmbeddedChannel();
        channel.config().setAllocator(alloc);
        channel.pipeline().addLast(new NettyFrameDecoder(MAX), exceptions);
    }

    @AfterEach
    void tearDown() {
        logged.close();
        channel.finishAndReleaseAll();
    }

    @Test
    void decodesFramesFedOneByteAtATime() {
        byte[] add = frameOfInts(41, 1);
        byte[] echo = frame(new byte[300]);

        NettyTestFrames.feedOneByteAtATime(channel, concat(add, echo));

        assertThat(bytesOf(channel.readInbound())).containsExactly(0, 0, 0, 41, 0, 0, 0, 1);
        assertThat(bytesOf(channel.readInbound())).hasSize(300).containsOnly(0);
        assertOpenAndUntroubled();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void decodesSeveralFramesInOneBuffer() {
        channel.writeInbound(Unpooled.wrappedBuffer(concat(frameOfInts(7), frame(new byte[0]), frameOfInts(8, 9))));

        assertThat(bytesOf(channel.readInbound())).containsExactly(0, 0, 0, 7);
        assertThat(bytesOf(channel.readInbound())).isEmpty();
        assertThat(bytesOf(channel.readInbound())).containsExactly(0, 0, 0, 8, 0, 0, 0, 9);
        assertOpenAndUntroubled();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void holdsAPartFrameUntilTheRestArrives() {
        byte[] whole = frameOfInts(1, 2);
        channel.writeInbound(Unpooled.wrappedBuffer(whole, 0, 7));

        assertThat((Object) channel.readInbound()).isNull();

        channel.writeInbound(Unpooled.wrappedBuffer(whole, 7, whole.length - 7));
        assertThat(bytesOf(channel.readInbound())).containsExactly(0, 0, 0, 1, 0, 0, 0, 2);
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void emitsTheBodyAsASliceOfTheInputWithoutCopying() {
        ByteBuf in = Unpooled.wrappedBuffer(frameOfInts(5));
        channel.writeInbound(in);

        ByteBuf body = channel.readInbound();
        assertThat(body.unwrap()).isSameAs(in);
        body.release();
        assertThat(in.refCnt()).isZero();
    }

    @Test
    void frameOfExactlyTheLimitIsAccepted() {
        channel.writeInbound(Unpooled.wrappedBuffer(frame(new byte[MAX])));

        assertThat(bytesOf(channel.readInbound())).hasSize(MAX);
        assertOpenAndUntroubled();
    }

    @Test
    void rejectsFrameLongerThanLimitAsSoonAsItsLengthArrivesWithoutBufferingIt() {
        byte[] claim = concat(lengthOnly(60 * 1024 * 1024), new byte[100]);

        int fed = NettyTestFrames.feedOneByteAtATime(channel, claim);

        assertThat(fed).isEqualTo(4);
        assertThat(alloc.metric().usedHeapMemory()).isZero();
        assertClosedWithOneReason("frame length 62914560 outside [0, 1024]");
    }

    @Test
    void rejectsNegativeLength() {
        NettyTestFrames.feedOneByteAtATime(channel, lengthOnly(-5));

        assertClosedWithOneReason("frame length -5 outside [0, 1024]");
    }

    @Test
    void decodesNothingAfterACorruptLengthInTheSameRead() {
        channel.writeInbound(Unpooled.wrappedBuffer(concat(frameOfInts(1), lengthOnly(Integer.MIN_VALUE),
                frameOfInts(2), frameOfInts(3))));

        assertThat(bytesOf(channel.readInbound())).containsExactly(0, 0, 0, 1);
        assertClosedWithOneReason("frame length -2147483648 outside [0, 1024]");
    }

    private void assertOpenAndUntroubled() {
        assertThat(channel.isOpen()).isTrue();
        assertThat(exceptions.caught).isEmpty();
        assertThat(logged.events()).isEmpty();
    }

    private void assertClosedWithOneReason(String reason) {
        assertThat(channel.isOpen()).isFalse();
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(exceptions.caught).singleElement().isInstanceOf(CorruptedFrameException.class)
                .extracting(Throwable::getMessage).isEqualTo(reason);
        assertThat(logged.events()).singleElement().satisfies(event -> {
            assertThat(event.getLevel()).isEqualTo(Level.WARN);
            assertThat(event.getFormattedMessage()).contains("closing connection", reason);
        });
        assertThat(channel.finish()).isFalse();
    }
}
