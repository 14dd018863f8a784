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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NettyClientHandlerTests {

    private static final Workload ADD = Workload.DEFAULTS.withStack(Stack.NETTY);

    private final NettyMessages messages = new NettyMessages(ADD);
    private final List<String> outcomes = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel(new NettyFrameDecoder(),
            new NettyClientHandler(messages));
    /** Calls with a 100 ms deadline, on a clock that moves only when the test says. */
    private final EmbeddedChannel impatient = new EmbeddedChannel(new NettyFrameDecoder(),
            new NettyClientHandler(messages, 100));

    NettyClientHandlerTests() {
        impatient.freezeTime();
    }

    @AfterEach
    void tearDown() {
        channel.finishAndReleaseAll();
        impatient.finishAndReleaseAll();
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

    @Test
    void aCallWithoutAnswerByItsDeadlineClosesTheConnectionFailingEveryOutstandingCallWithWhichAndAfterHowLong() {
        impatient.writeOutbound(new RecordingCall("a", 1), new RecordingCall("b", 2));
        releaseOutbound(impatient);

        passTime(99);
        assertThat(outcomes).as("before the deadline").isEmpty();
        assertThat(impatient.isOpen()).isTrue();
        passTime(1);

        String reason = "Calculator.Add call 1 of this connection timed out after 100 ms; the connection is closed, "
                + "failing 1 other call in flight, as its answers carry no call ids and the late answer would be "
                + "taken for the next call's";
        assertThat(outcomes).containsExactly("a failed: " + reason, "b failed: " + reason);
        assertThat(impatient.isOpen()).isFalse();
        assertThat(impatient.finish()).isFalse();
    }

    @Test
    void theDeadlineThatCountsIsTheOldestUnansweredCalls() {
        impatient.writeOutbound(new RecordingCall("a", 1));
        passTime(60);
        impatient.writeOutbound(new RecordingCall("b", 2));
        releaseOutbound(impatient);
        impatient.writeInbound(Unpooled.wrappedBuffer(frameOfInts(2)));

        passTime(40);
        assertThat(outcomes).as("a answered in time; b's deadline is 60 ms later").containsExactly("a answered");
        assertThat(impatient.isOpen()).isTrue();
        passTime(60);

        assertThat(outcomes).containsExactly("a answered", "b failed: Calculator.Add call 2 of this connection "
                + "timed out after 100 ms; the connection is closed, as its answers carry no call ids and the late "
                + "answer would be taken for the next call's");
        assertThat(impatient.isOpen()).isFalse();
    }

    @Test
    void callsAnsweredInTimeLeaveTheConnectionOpenLongPastTheirDeadlines() {
        impatient.writeOutbound(new RecordingCall("a", 1), new RecordingCall("b", 2));
        releaseOutbound(impatient);
        impatient.writeInbound(Unpooled.wrappedBuffer(concat(frameOfInts(2), frameOfInts(3))));

        passTime(1000);
        impatient.writeOutbound(new RecordingCall("c", 3));
        releaseOutbound(impatient);
        impatient.writeInbound(Unpooled.wrappedBuffer(frameOfInts(4)));
        passTime(1000);

        assertThat(outcomes).containsExactly("a answered", "b answered", "c answered");
        assertThat(impatient.isOpen()).isTrue();
        assertThat(impatient.finish()).isFalse();
    }

    /** Moves the impatient channel's clock on and runs what its event loop has to do by then. */
    private void passTime(long millis) {
        impatient.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        impatient.runPendingTasks();
    }

    private void releaseOutbound() {
        releaseOutbound(channel);
    }

    private static void releaseOutbound(EmbeddedChannel channel) {
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
