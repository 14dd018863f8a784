package io.perflab.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Random byte streams, split at random points, never crash the decoder, never make it hold more
 * than the bytes it was given, and end either with the connection closed or with every emitted
 * frame within the limits.
 */
class RpcFrameDecoderPropertyTests {

    private static final int MAX = 512;

    @Property(tries = 300)
    void randomStreamsDecodeOrClose(@ForAll("streams") byte[] stream, @ForAll @IntRange(min = 1, max = 64) int chunk) {
        UnpooledByteBufAllocator alloc = TestFrames.trackingAllocator();
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.config().setAllocator(alloc);
        List<String> reasons = new ArrayList<>();
        ch.pipeline().addLast(new RpcFrameDecoder(WireFormat.MIN_REQUEST_FRAME_BYTES, MAX, true, reasons::add));

        long peak = 0;
        for (int i = 0; i < stream.length && ch.isOpen(); i += chunk) {
            int n = Math.min(chunk, stream.length - i);
            ch.writeInbound(Unpooled.wrappedBuffer(stream, i, n)); // rethrows anything the pipeline threw
            peak = Math.max(peak, alloc.metric().usedHeapMemory());
        }

        // a cumulation buffer's capacity is rounded up to a power of two (64 at the least), so a short stream may
        // hold a buffer of up to 256 bytes while it waits for the rest of a frame
        assertThat(peak).as("bytes held").isLessThanOrEqualTo(2L * stream.length + 256);
        long decodedBytes = 0;
        for (Object o; (o = ch.readInbound()) != null; ) {
            ByteBuf frame = (ByteBuf) o;
            assertThat(frame.readableBytes()).isBetween(WireFormat.MIN_REQUEST_FRAME_BYTES, MAX);
            decodedBytes += 4 + frame.readableBytes();
            frame.release();
        }
        if (ch.isOpen()) {
            assertThat(reasons).isEmpty();
            long undecoded = Math.max(0, stream.length - WireFormat.PREAMBLE.length) - decodedBytes;
            assertThat(undecoded).as("bytes waiting for the rest of a frame").isBetween(0L, 4L + MAX - 1);
        } else {
            assertThat(reasons).hasSize(1);
        }
        ch.finishAndReleaseAll();
    }

    @Provide
    Arbitrary<byte[]> streams() {
        Arbitrary<byte[]> noise = Arbitraries.bytes().array(byte[].class).ofMaxSize(2000);
        Arbitrary<byte[]> frame = Combinators.combine(
                Arbitraries.integers().between(WireFormat.MIN_REQUEST_FRAME_BYTES, MAX),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(MAX))
                .as((length, content) -> {
                    ByteBuffer b = ByteBuffer.allocate(4 + length).putInt(length);
                    b.put(content, 0, Math.min(content.length, length));
                    return b.array();
                });
        Arbitrary<byte[]> framesThenNoise = Combinators.combine(frame.list().ofMaxSize(6),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(40))
                .as((frames, tail) -> {
                    List<byte[]> parts = new ArrayList<>();
                    parts.add(TestFrames.preamble());
                    parts.addAll(frames);
                    parts.add(tail);
                    return TestFrames.concat(parts.toArray(new byte[0][]));
                });
        Arbitrary<byte[]> preambleThenNoise = noise.map(n -> TestFrames.concat(TestFrames.preamble(), n));
        return Arbitraries.oneOf(noise, framesThenNoise, preambleThenNoise);
    }
}
