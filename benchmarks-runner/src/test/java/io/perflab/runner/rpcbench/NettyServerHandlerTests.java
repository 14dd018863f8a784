package io.perflab.runner.rpcbench;

import static io.perflab.runner.rpcbench.NettyTestFrames.bytesOf;
import static io.perflab.runner.rpcbench.NettyTestFrames.concat;
import static io.perflab.runner.rpcbench.NettyTestFrames.frame;
import static io.perflab.runner.rpcbench.NettyTestFrames.frameOfInts;
import static io.perflab.runner.rpcbench.NettyTestFrames.lengthOnly;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NettyServerHandlerTests {

    private static final Workload ADD = Workload.DEFAULTS.withStack(Stack.NETTY);
    private static final Workload ECHO = ADD.withPayload(2048, 2048);

    private final CapturedLog logged = CapturedLog.of(NettyServerHandler.class);
    private EmbeddedChannel channel;

    @AfterEach
    void tearDown() {
        logged.close();
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void answersAddWithTheSumOnTheEventLoop() {
        channel = server(ADD, null);

        channel.writeInbound(Unpooled.wrappedBuffer(frameOfInts(40, 2)));

        assertThat(bytesOf(channel.readOutbound())).isEqualTo(frameOfInts(42));
        assertThat(channel.isOpen()).isTrue();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void answersEveryRequestOfOneReadInOrder() {
        channel = server(ADD, null);

        channel.writeInbound(Unpooled.wrappedBuffer(concat(frameOfInts(1, 1), frameOfInts(2, 2), frameOfInts(3, 3))));

        assertThat(bytesOf(channel.readOutbound())).isEqualTo(frameOfInts(2));
        assertThat(bytesOf(channel.readOutbound())).isEqualTo(frameOfInts(4));
        assertThat(bytesOf(channel.readOutbound())).isEqualTo(frameOfInts(6));
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void answersEchoWithTheAskedBytesOfThePayloadPaddedWithZeros() {
        channel = server(ECHO, null);
        byte[] shortPayload = ByteBuffer.allocate(4 + 2).putInt(5).put((byte) 8).put((byte) 9).array();
        byte[] longPayload = ByteBuffer.allocate(4 + 3).putInt(2).put((byte) 1).put((byte) 2).put((byte) 3).array();

        channel.writeInbound(Unpooled.wrappedBuffer(concat(frame(shortPayload), frame(longPayload))));

        assertThat(bytesOf(channel.readOutbound())).isEqualTo(frame(new byte[] {8, 9, 0, 0, 0}));
        assertThat(bytesOf(channel.readOutbound())).isEqualTo(frame(new byte[] {1, 2}));
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void answersTheRequestsItsClientWrites() {
        channel = server(ECHO, null);

        channel.writeInbound(new NettyMessages(ECHO).request(channel.alloc(), 0));

        ByteBuf answer = channel.readOutbound();
        assertThat(answer.readInt()).isEqualTo(2048);
        assertThat(answer.readableBytes()).isEqualTo(2048);
        answer.release();
    }

    @Test
    void handsEachRequestToAWorkerWhoseAnswerGoesBackThroughTheChannel() {
        Queue<Runnable> workerTasks = new ArrayDeque<>();
        channel = server(ADD, workerTasks::add);

        ByteBuf requests = Unpooled.wrappedBuffer(concat(frameOfInts(1, 2), frameOfInts(3, 4)));

        channel.writeInbound(requests);

        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(workerTasks).hasSize(2);
        workerTasks.poll().run();
        assertThat(bytesOf(channel.readOutbound())).isEqualTo(frameOfInts(3));
        workerTasks.poll().run();
        assertThat(bytesOf(channel.readOutbound())).isEqualTo(frameOfInts(7));
        assertThat(requests.refCnt()).isZero();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void closesTheConnectionOnAnAddRequestOfTheWrongSize() {
        channel = server(ADD, null);

        ByteBuf requests = Unpooled.wrappedBuffer(concat(frameOfInts(1), frameOfInts(1, 1)));

        channel.writeInbound(requests);

        assertClosedWithOneLogLine("Calculator.Add expects 8 bytes (int32 x, int32 y), got 4");
        assertThat(requests.refCnt()).as("both requests released, the second unanswered").isZero();
    }

    @Test
    void closesTheConnectionOnAnEchoRequestAskingForMoreThanAFrameWithoutAllocatingIt() {
        channel = server(ECHO, null);

        channel.writeInbound(Unpooled.wrappedBuffer(frameOfInts(Integer.MAX_VALUE)));

        assertClosedWithOneLogLine("Calculator.Echo responseBytes 2147483647 exceeds 67108864");
    }

    @Test
    void closesTheConnectionOnAnEchoRequestTooShortToSayItsAnswerSize() {
        channel = server(ECHO, null);

        channel.writeInbound(Unpooled.wrappedBuffer(frame(new byte[] {1, 2})));

        assertClosedWithOneLogLine("Calculator.Echo expects int32 responseBytes, got 2 bytes");
    }

    @Test
    void closesTheConnectionOnACorruptFrameLength() {
        channel = server(ADD, null);

        channel.writeInbound(Unpooled.wrappedBuffer(lengthOnly(-1)));

        assertThat(channel.isOpen()).isFalse();
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(channel.finish()).isFalse();
    }

    private static EmbeddedChannel server(Workload workload, Executor workers) {
        return new EmbeddedChannel(new NettyFrameDecoder(),
                new NettyServerHandler(new NettyMessages(workload), workers, ServerWork.NONE));
    }

    private void assertClosedWithOneLogLine(String reason) {
        assertThat(channel.isOpen()).isFalse();
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(logged.events()).singleElement().extracting(ILoggingEvent::getFormattedMessage).asString()
                .contains("closing connection", reason);
        assertThat(channel.finish()).isFalse();
    }
}
