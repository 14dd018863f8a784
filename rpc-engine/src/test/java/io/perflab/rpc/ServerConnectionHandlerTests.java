package io.perflab.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ResourceLeakDetector;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Request handling on the reactor ({@code workerThreads = 0}) through an embedded pipeline. */
class ServerConnectionHandlerTests {

    private final ServerMetrics metrics = new ServerMetrics();
    private final AtomicInteger initialCapacitySeen = new AtomicInteger();
    private EmbeddedChannel channel;

    @AfterEach
    void tearDown() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    private EmbeddedChannel start(EngineOptions options) {
        ServiceDefinition probe = ServiceDefinition.builder("Probe")
                .method("Capacity", (req, resp) -> {
                    initialCapacitySeen.set(resp.capacity() - resp.writerIndex() + WireFormat.RESPONSE_HEADER_BYTES);
                    resp.writeZero(req.readInt());
                })
                .method("Fail", (req, resp) -> {
                    resp.writeLong(1);
                    throw new IllegalStateException("handler broke: " + req.readableBytes());
                })
                .method("CopyTooMuch", (req, resp) -> resp.writeBytes(new byte[2], 0, req.readInt()))
                .build();
        MethodTable methods = new MethodTable(List.of(BenchmarkService.definition(), probe));
        ServerConfig config = ServerConfig.defaults().withWorkerThreads(0).withMaxFrameBytes(1 << 20);
        channel = new EmbeddedChannel();
        channel.pipeline().addLast(new RpcFrameDecoder(WireFormat.MIN_REQUEST_FRAME_BYTES, config.maxFrameBytes(), true,
                r -> metrics.protocolErrors.increment()));
        channel.pipeline().addLast(new ServerConnectionHandler(methods, null, options, config, metrics,
                System::nanoTime));
        channel.writeInbound(Unpooled.wrappedBuffer(TestFrames.preamble()));
        return channel;
    }

    private TestFrames.Response send(byte[] frame) {
        TestFrames.feedOneByteAtATime(channel, TestFrames.trackingAllocator(), frame);
        ByteBuf out = channel.readOutbound();
        assertThat(out).as("a response").isNotNull();
        return TestFrames.Response.read(out);
    }

    @Test
    void answersAddWithTheSum() {
        start(EngineOptions.defaults());
        TestFrames.Response r = send(TestFrames.addRequest(7, 20, 22));
        assertThat(r.callId()).isEqualTo(7);
        assertThat(r.status()).isEqualTo(RpcStatus.OK);
        assertThat(r.body().readInt()).isEqualTo(42);
        r.body().release();
    }

    @Test
    void unknownMethodIsAnsweredAndConnectionStaysOpen() {
        start(EngineOptions.defaults());
        TestFrames.Response r = send(TestFrames.request(3, 0, "Calculator.Divide", new byte[8]));
        assertThat(r.status()).isEqualTo(RpcStatus.NO_SUCH_METHOD);
        assertThat(r.text()).contains("Calculator.Divide").contains("Calculator.Add");
        r.body().release();
        assertThat(channel.isOpen()).isTrue();
        TestFrames.Response next = send(TestFrames.addRequest(4, 1, 1));
        assertThat(next.status()).isEqualTo(RpcStatus.OK);
        next.body().release();
    }

    @Test
    void undecodableBodyIsInvalidRequestAndConnectionStaysOpen() {
        start(EngineOptions.defaults());
        TestFrames.Response r = send(TestFrames.request(5, 0, "Calculator.Add", new byte[3]));
        assertThat(r.status()).isEqualTo(RpcStatus.INVALID_REQUEST);
        assertThat(r.text()).contains("expects 8 bytes");
        r.body().release();
        TestFrames.Response tooShort = send(TestFrames.request(6, 0, "Probe.Capacity", new byte[2]));
        assertThat(tooShort.status()).isEqualTo(RpcStatus.INVALID_REQUEST);
        assertThat(tooShort.text()).as("in words, not Netty's buffer")
                .isEqualTo("request body too short: the method read past its 2 bytes");
        tooShort.body().release();
        assertThat(channel.isOpen()).isTrue();
    }

    /**
     * The leak detector wraps the buffers it samples (one in 128 by default), and a wrapper's text is not the
     * wrapped buffer's, which the read's failure names: such a request read short was a remote error, not too short.
     */
    @Test
    void aRequestReadShortIsInvalidAlsoWhenTheLeakDetectorWrapsItsBuffer() {
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        try {
            for (int i = 0; i < 3; i++) {
                start(EngineOptions.defaults());
                TestFrames.Response tooShort = send(TestFrames.request(6, 0, "Probe.Capacity", new byte[2]));
                assertThat(tooShort.status()).isEqualTo(RpcStatus.INVALID_REQUEST);
                assertThat(tooShort.text()).isEqualTo("request body too short: the method read past its 2 bytes");
                tooShort.body().release();
                channel.finishAndReleaseAll();
                channel = null;
            }
        } finally {
            ResourceLeakDetector.setLevel(level);
        }
    }

    @Test
    void anIndexOutOfBoundsThatIsNotTheRequestsEndIsARemoteErrorWithItsCause() {
        start(EngineOptions.defaults());
        TestFrames.Response r = send(TestFrames.request(9, 0, "Probe.CopyTooMuch",
                ByteBuffer.allocate(4).putInt(4).array()));
        assertThat(r.status()).isEqualTo(RpcStatus.REMOTE_ERROR);
        assertThat(r.text()).isEqualTo("the method's handler went out of bounds: Range [0, 0 + 4) out of bounds for "
                + "length 2");
        r.body().release();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void handlerExceptionTravelsBackAsRemoteErrorWithoutPartialBody() {
        start(EngineOptions.defaults());
        TestFrames.Response r = send(TestFrames.request(8, 0, "Probe.Fail", new byte[5]));
        assertThat(r.status()).isEqualTo(RpcStatus.REMOTE_ERROR);
        assertThat(r.text()).isEqualTo("handler broke: 5");
        r.body().release();
    }

    @Test
    void echoRefusesAResponseLargerThanAFrameBeforeBuildingIt() {
        start(EngineOptions.defaults());
        int largest = (1 << 20) - 5; // maxFrameBytes less the call id and status

        ByteBuf refused = sendRaw(echoRequest(10, largest + 1));
        assertThat(refused.capacity()).as("the answer's buffer").isLessThan(4096);
        TestFrames.Response r = TestFrames.Response.read(refused);
        assertThat(r.status()).isEqualTo(RpcStatus.INVALID_REQUEST);
        assertThat(r.text()).isEqualTo("Calculator.Echo responseBytes 1048572 exceeds 1048571, the largest response "
                + "a frame of this server's maxFrameBytes carries");
        r.body().release();
        TestFrames.Response huge = TestFrames.Response.read(sendRaw(echoRequest(11, Integer.MAX_VALUE)));
        assertThat(huge.status()).isEqualTo(RpcStatus.INVALID_REQUEST);
        assertThat(huge.text()).startsWith("Calculator.Echo responseBytes 2147483647 exceeds 1048571");
        huge.body().release();

        TestFrames.Response fits = TestFrames.Response.read(sendRaw(echoRequest(12, largest)));
        assertThat(fits.status()).isEqualTo(RpcStatus.OK);
        assertThat(fits.body().readableBytes()).isEqualTo(largest);
        fits.body().release();
    }

    @Test
    void aHandlerWritingPastTheFrameFailsAtThatWrite() {
        start(EngineOptions.defaults());
        ByteBuf raw = sendRaw(TestFrames.request(13, 0, "Probe.Capacity", ByteBuffer.allocate(4).putInt(1 << 20)
                .array()));

        assertThat(raw.capacity()).as("the answer's buffer").isLessThan(4096);
        TestFrames.Response r = TestFrames.Response.read(raw);
        assertThat(r.status()).isEqualTo(RpcStatus.REMOTE_ERROR);
        assertThat(r.text()).isEqualTo("the response does not fit in a frame of maxFrameBytes 1048576");
        r.body().release();
    }

    @Test
    void sleepRefusesANegativeTime() {
        start(EngineOptions.defaults());
        TestFrames.Response r = send(TestFrames.request(14, 0, "Calculator.Sleep", ByteBuffer.allocate(4).putInt(-1)
                .array()));

        assertThat(r.status()).isEqualTo(RpcStatus.INVALID_REQUEST);
        assertThat(r.text()).isEqualTo("Calculator.Sleep millis is negative: -1");
        r.body().release();
    }

    @Test
    void truncatedHeaderClosesTheConnection() {
        start(EngineOptions.defaults());
        // Method name length 200 but only 3 bytes follow in the frame.
        byte[] frame = ByteBuffer.allocate(4 + 13).putInt(13).putInt(1).putInt(0).put((byte) 0).put((byte) 200)
                .put("abc".getBytes(StandardCharsets.US_ASCII)).array();
        TestFrames.feedOneByteAtATime(channel, TestFrames.trackingAllocator(), frame);
        assertThat(channel.isOpen()).isFalse();
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(metrics.protocolErrors()).isEqualTo(1);
    }

    @Test
    void responseBufferStartsAtCallBufferInitialBytesAndGrowsByDoubling() {
        start(EngineOptions.defaults().withOption("callBufferInitialBytes", "256"));
        TestFrames.Response small = send(TestFrames.request(1, 0, "Probe.Capacity",
                ByteBuffer.allocate(4).putInt(10).array()));
        assertThat(initialCapacitySeen.get()).isEqualTo(256);
        small.body().release();
        ByteBuf raw = sendRaw(TestFrames.request(2, 0, "Probe.Capacity", ByteBuffer.allocate(4).putInt(1000).array()));
        assertThat(raw.capacity()).isEqualTo(1024); // 256 -> 512 -> 1024 for 9 + 1000 bytes
        raw.release();
    }

    @Test
    void consolidatedFlushWritesAllResponsesOfOneReadBeforeFlushing() {
        start(EngineOptions.defaults());
        channel.writeInbound(Unpooled.wrappedBuffer(TestFrames.concat(TestFrames.addRequest(1, 1, 1),
                TestFrames.addRequest(2, 2, 2), TestFrames.addRequest(3, 3, 3))));
        for (int id = 1; id <= 3; id++) {
            TestFrames.Response r = TestFrames.Response.read(channel.readOutbound());
            assertThat(r.callId()).isEqualTo(id);
            assertThat(r.body().readInt()).isEqualTo(2 * id);
            r.body().release();
        }
    }

    @Test
    void recycledCallObjectsAreReusedAndFreshOnesAreNot() {
        for (String mode : new String[] {"recycled", "fresh"}) {
            start(EngineOptions.defaults().withOption("callObjects", mode));
            ServerConnectionHandler handler = channel.pipeline().get(ServerConnectionHandler.class);
            send(TestFrames.addRequest(1, 1, 1)).body().release();
            send(TestFrames.addRequest(2, 1, 1)).body().release();
            assertThat(handler.pooledCalls()).isEqualTo(mode.equals("recycled") ? 1 : 0);
            channel.finishAndReleaseAll();
        }
    }

    private static byte[] echoRequest(int callId, int responseBytes) {
        return TestFrames.request(callId, 0, "Calculator.Echo", ByteBuffer.allocate(4).putInt(responseBytes).array());
    }

    private ByteBuf sendRaw(byte[] frame) {
        channel.writeInbound(Unpooled.wrappedBuffer(frame));
        return channel.readOutbound();
    }
}
