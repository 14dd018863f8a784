package io.perflab.runner.rpcbench;

import static io.perflab.runner.rpcbench.NettyTestFrames.bytesOf;
import static io.perflab.runner.rpcbench.NettyTestFrames.concat;
import static io.perflab.runner.rpcbench.NettyTestFrames.frame;
import static io.perflab.runner.rpcbench.NettyTestFrames.frameOfInts;
import static io.perflab.runner.rpcbench.NettyTestFrames.lengthOnly;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NettyClientHandlerTests {

    private static final Workload ADD = Workload.DEFAULTS.withStack(Stack.NETTY);

    private final NettyMessages messages = new NettyMessages(ADD);
    private final List<String> outcomes = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel(new NettyFrameDecoder(),
            new NettyClientHandler(messages));

    @AfterEach
    void tearDown() {
        channel.finishAndReleaseAll();
    }

    @Test
    void writesTheRequestFrameOfEachCall() {
        channel.writeOutbound(new RecordingCall("a", 41));

        assertThat(bytesOf(channel.readOutbound())).isEqualTo(frameOfInts(41, 1));
        assertThat(outcomes).isEmpty();
    }

    @Test
    void answersCompleteTheOutstandingCallsInTheOrderTheyWereWritten() {
        channel.writeOutbound(new RecordingCall("a", 1), new RecordingCall("b", 2), new RecordingCall("c", 3));
        releaseOutbound();

        channel.writeInbound(Unpooled.wrappedBuffer(concat(frameOfInts(2), frameOfInts(3))));

        assertThat(outcomes).containsExactly("a answered", "b answered");
        channel.writeInbound(Unpooled.wrappedBuffer(frameOfInts(4)));
        assertThat(outcomes).containsExactly("a answered", "b answered", "c answered");
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void answersFedOneByteAtATimeCompleteTheirCalls() {
        channel.writeOutbound(new RecordingCall("a", 1), new RecordingCall("b", 2));
        releaseOutbound();

        NettyTestFrames.feedOneByteAtATime(channel, concat(frameOfInts(2), frameOfInts(3)));

        assertThat(outcomes).containsExactly("a answered", "b answered");
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aWrongAnswerFailsItsCallOnly() {
        channel.writeOutbound(new RecordingCall("a", 1), new RecordingCall("b", 2));
        releaseOutbound();

        channel.writeInbound(Unpooled.wrappedBuffer(concat(frame(new byte[2]), frameOfInts(3))));

        assertThat(outcomes).containsExactly("a failed: Add answered 2 bytes, expected 4", "b answered");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void anAnswerToNoCallIsReleasedAndDropped() {
        ByteBuf answer = Unpooled.wrappedBuffer(frameOfInts(7));

        channel.writeInbound(answer);

        assertThat(answer.refCnt()).isZero();
        assertThat(outcomes).isEmpty();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aClosedConnectionFailsEveryOutstandingCall() {
        channel.writeOutbound(new RecordingCall("a", 1), new RecordingCall("b", 2));
        releaseOutbound();

        channel.close();

        assertThat(outcomes).containsExactly("a failed: connection closed", "b failed: connection closed");
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aCloseEventClosesTheConnectionFailingEveryOutstandingCallWithItsReason() {
        channel.writeOutbound(new RecordingCall("a", 1), new RecordingCall("b", 2));
        releaseOutbound();

        channel.pipeline().fireUserEventTriggered(new NettyClientHandler.Close("a gave up"));

        assertThat(channel.isOpen()).isFalse();
        assertThat(outcomes).containsExactly("a failed: a gave up", "b failed: a gave up");
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aCallWrittenAfterTheConnectionWentInactiveFailsAtOnceAndItsRequestIsReleased() {
        channel.pipeline().fireChannelInactive();
        RecordingCall late = new RecordingCall("late", 1);
        ByteBuf request = late.request;

        channel.writeOneOutbound(late);
        channel.flushOutbound();

        assertThat(outcomes).containsExactly("late failed: connection closed");
        assertThat(request.refCnt()).isZero();
        assertThat((Object) channel.readOutbound()).isNull();
    }

    @Test
    void aCorruptAnswerFrameFailsOutstandingCallsWithTheDecodersReason() {
        channel.writeOutbound(new RecordingCall("a", 1), new RecordingCall("b", 2));
        releaseOutbound();

        channel.writeInbound(Unpooled.wrappedBuffer(concat(frameOfInts(2), lengthOnly(-1))));

        assertThat(outcomes).containsExactly("a answered",
                "b failed: connection failed: frame length -1 outside [0, 67108864]");
        assertThat(channel.isOpen()).isFalse();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void callsWrittenWhileAnswersArriveAreFlushedOnceTheReadEnds() {
        channel.writeOutbound(new RecordingCall("a", 1));
        releaseOutbound();

        channel.write(new RecordingCall("b", 2));
        assertThat((Object) channel.readOutbound()).as("not flushed yet").isNull();
        channel.writeInbound(Unpooled.wrappedBuffer(frameOfInts(2)));

        assertThat(bytesOf(channel.readOutbound())).isEqualTo(frameOfInts(2, 1));
        assertThat(outcomes).containsExactly("a answered");
    }

    private void releaseOutbound() {
        Object message;
        while ((message = channel.readOutbound()) != null) {
            ((ByteBuf) message).release();
        }
    }

    /** A call whose outcome is written down as "name answered" or "name failed: reason". */
    private final class RecordingCall extends NettyClientHandler.Call {
        private final String name;
        private final ByteBuf request;

        RecordingCall(String name, int x) {
            this.name = name;
            this.request = messages.request(channel.alloc(), x);
            request(request);
        }

        @Override
        void answered() {
            outcomes.add(name + " answered");
        }

        @Override
        void failed(String description) {
            outcomes.add(name + " failed: " + description);
        }
    }
}
