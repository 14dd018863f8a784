package io.perflab.runner.rpcbench;

import static io.perflab.runner.rpcbench.NettyTestFrames.bytesOf;
import static io.perflab.runner.rpcbench.NettyTestFrames.frameOfInts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NettyConnectionTests {

    private static final Workload ADD = Workload.DEFAULTS.withStack(Stack.NETTY);

    private final NettyMessages messages = new NettyMessages(ADD);
    private final EmbeddedChannel channel = new EmbeddedChannel(new NettyFrameDecoder(),
            new NettyClientHandler(messages));
    private final NettyConnection connection = new NettyConnection(channel, messages);
    private final List<String> outcomes = new ArrayList<>();
    private final RpcStack.CallListener listener = new RpcStack.CallListener() {
        @Override
        public void answered() {
            outcomes.add("answered");
        }

        @Override
        public void failed(String description) {
            outcomes.add("failed: " + description);
        }

        @Override
        public void connectionLost(String description) {
            outcomes.add("connection lost: " + description);
        }
    };

    @AfterEach
    void tearDown() {
        channel.finishAndReleaseAll();
    }

    @Test
    void aChainsCallIsWrittenAndItsAnswerToldToItsListener() {
        RpcStack.AsyncCaller caller = connection.asyncCaller(listener);

        caller.call(9);
        channel.flushOutbound();
        assertThat(bytesOf(channel.readOutbound())).isEqualTo(frameOfInts(9, 1));
        channel.writeInbound(Unpooled.wrappedBuffer(frameOfInts(10)));

        assertThat(outcomes).containsExactly("answered");
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aChainsCallOnAClosedConnectionFailsAtOnceAsALostConnection() {
        channel.close();

        connection.asyncCaller(listener).call(1);

        assertThat(outcomes).containsExactly("connection lost: connection closed");
    }

    @Test
    void aChainsWrongAnswerFailsItsCallOnly() {
        RpcStack.AsyncCaller caller = connection.asyncCaller(listener);

        caller.call(9);
        channel.flushOutbound();
        bytesOf(channel.readOutbound());
        channel.writeInbound(Unpooled.wrappedBuffer(NettyTestFrames.frame(new byte[2])));

        assertThat(outcomes).containsExactly("failed: Add answered 2 bytes, expected 4");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void aChainsCallWithoutAnswerByItsDeadlineFailsAsALostConnection() {
        EmbeddedChannel silent = new EmbeddedChannel(new NettyFrameDecoder(), new NettyClientHandler(messages, 100));
        silent.freezeTime();
        try {
            new NettyConnection(silent, messages, 100).asyncCaller(listener).call(1);
            silent.flushOutbound();
            assertThat(bytesOf(silent.readOutbound())).isEqualTo(frameOfInts(1, 1));

            silent.advanceTimeBy(100, TimeUnit.MILLISECONDS);
            silent.runPendingTasks();

            assertThat(outcomes).containsExactly("connection lost: Calculator.Add call 1 of this connection timed "
                    + "out after 100 ms; the connection is closed, as its answers carry no call ids and the late "
                    + "answer would be taken for the next call's");
            assertThat(silent.isOpen()).isFalse();
        } finally {
            silent.finishAndReleaseAll();
        }
    }

    @Test
    void aBlockingCallWithoutAnswerClosesTheConnectionSoThatNoLaterCallTakesItsAnswer() {
        NettyConnection impatient = new NettyConnection(channel, messages, 50);
        String reason = "no answer within 50 ms; the connection is closed, as its answers carry no call ids and "
                + "the late answer would be taken for the next call's";

        assertThatThrownBy(() -> impatient.call(1)).isInstanceOf(CallFailedException.class).hasMessage(reason)
                .matches(e -> ((CallFailedException) e).connectionLost(), "the connection is lost");
        assertThat(bytesOf(channel.readOutbound())).isEqualTo(frameOfInts(1, 1));

        assertThat(channel.isOpen()).isFalse();
        assertThatThrownBy(() -> impatient.call(2)).isInstanceOf(CallFailedException.class)
                .hasMessage("connection closed")
                .matches(e -> ((CallFailedException) e).connectionLost(), "the connection is lost");
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aBlockingCallOnAClosedConnectionFailsAtOnce() {
        channel.close();

        assertThatThrownBy(() -> connection.call(1)).isInstanceOf(CallFailedException.class)
                .hasMessage("connection closed");
    }
}
