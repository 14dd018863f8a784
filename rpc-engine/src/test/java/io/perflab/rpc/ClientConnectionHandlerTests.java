package io.perflab.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The client end of a connection on an embedded channel: the test plays the server. */
class ClientConnectionHandlerTests {

    private EmbeddedChannel channel;
    private ClientConnectionHandler handler;
    private final List<Object> outcomes = new ArrayList<>();

    @AfterEach
    void tearDown() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    private void start(EngineOptions options) {
        RpcClient owner = RpcClient.create(options);
        owner.close();
        handler = new ClientConnectionHandler(owner, options, "embedded");
        channel = new EmbeddedChannel(new RpcFrameDecoder(WireFormat.MIN_RESPONSE_FRAME_BYTES, 1 << 20, false,
                handler::protocolError), handler);
        ByteBuf preamble = channel.readOutbound();
        assertThat(ByteBufUtil.getBytes(preamble)).isEqualTo(WireFormat.PREAMBLE);
        preamble.release();
    }

    private OutboundCall send(int callId, int x, int y) {
        OutboundCall call = handler.acquire();
        call.prepare(callId, BenchmarkService.ADD, b -> b.writeInt(x).writeInt(y), ByteBuf::readInt, 10_000,
                new RpcCallback<Integer>() {
                    @Override
                    public void onSuccess(Integer value) {
                        outcomes.add(value);
                    }

                    @Override
                    public void onFailure(RpcException error) {
                        outcomes.add(error.status());
                    }
                }, 256, 1 << 20);
        handler.submit(call);
        channel.runPendingTasks();
        return call;
    }

    private void respond(int callId, int status, byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(9 + body.length).putInt(5 + body.length).putInt(callId).put((byte) status)
                .put(body);
        for (byte value : b.array()) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {value}));
        }
    }

    @Test
    void writesRequestFramesAndMatchesResponsesByCallId() {
        start(EngineOptions.defaults());
        send(1, 1, 2);
        send(2, 3, 4);
        for (int id = 1; id <= 2; id++) {
            ByteBuf frame = channel.readOutbound();
            assertThat(frame.readInt()).isEqualTo(frame.readableBytes());
            assertThat(frame.readInt()).isEqualTo(id);
            frame.release();
        }
        respond(2, 0, ByteBuffer.allocate(4).putInt(7).array());
        respond(99, 0, ByteBuffer.allocate(4).putInt(0).array()); // unknown id: dropped
        respond(1, 0, ByteBuffer.allocate(4).putInt(3).array());
        assertThat(outcomes).containsExactly(7, 3);
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void errorStatusAndMessageReachTheCaller() {
        start(EngineOptions.defaults());
        send(5, 0, 0);
        ((ByteBuf) channel.readOutbound()).release();
        respond(5, RpcStatus.SERVER_TOO_BUSY.code(), "full".getBytes());
        assertThat(outcomes).containsExactly(RpcStatus.SERVER_TOO_BUSY);
    }

    @Test
    void unknownStatusCodeClosesTheConnectionAndFailsEveryPendingCall() {
        start(EngineOptions.defaults());
        send(1, 0, 0);
        send(2, 0, 0);
        respond(1, 77, new byte[0]);
        assertThat(channel.isOpen()).isFalse();
        assertThat(outcomes).containsExactly(RpcStatus.NETWORK_ERROR, RpcStatus.NETWORK_ERROR);
    }

    @Test
    void oversizedResponseClosesTheConnectionAndFailsPendingCalls() {
        start(EngineOptions.defaults());
        send(1, 0, 0);
        for (byte b : TestFrames.lengthOnly(Integer.MAX_VALUE)) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        assertThat(channel.isOpen()).isFalse();
        assertThat(outcomes).containsExactly(RpcStatus.NETWORK_ERROR);
    }

    @Test
    void recycledCallObjectsComeBackFromThePoolAndFreshOnesDoNot() {
        for (String mode : new String[] {"recycled", "fresh"}) {
            start(EngineOptions.defaults().withOption("callObjects", mode));
            OutboundCall first = send(1, 0, 0);
            ((ByteBuf) channel.readOutbound()).release();
            respond(1, 0, ByteBuffer.allocate(4).putInt(0).array());
            OutboundCall second = handler.acquire();
            if (mode.equals("recycled")) {
                assertThat(second).isSameAs(first);
            } else {
                assertThat(second).isNotSameAs(first);
            }
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void requestBufferStartsAtCallBufferInitialBytes() {
        for (int initial : new int[] {256, 4096}) {
            start(EngineOptions.defaults().withOption("callBufferInitialBytes", Integer.toString(initial)));
            OutboundCall call = handler.acquire();
            call.prepare(1, BenchmarkService.ECHO, b -> b.writeInt(0), ByteBuf::readableBytes, 1000, null,
                    initial, 1 << 20);
            assertThat(call.request.capacity()).isEqualTo(initial);
            call.request.release();
            call.request = null;
            channel.finishAndReleaseAll();
        }
    }
}
