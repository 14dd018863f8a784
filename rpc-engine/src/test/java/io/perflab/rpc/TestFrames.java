package io.perflab.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Builds raw frames as a client would send them, and feeds bytes to embedded channels. */
final class TestFrames {

    private TestFrames() {
    }

    static byte[] preamble() {
        return WireFormat.PREAMBLE.clone();
    }

    static byte[] request(int callId, int timeoutMillis, String method, byte[] body) {
        byte[] name = method.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(4 + 10 + name.length + body.length);
        b.putInt(10 + name.length + body.length).putInt(callId).putInt(timeoutMillis).put((byte) 0)
                .put((byte) name.length).put(name).put(body);
        return b.array();
    }

    static byte[] addRequest(int callId, int x, int y) {
        return request(callId, 0, "Calculator.Add", ByteBuffer.allocate(8).putInt(x).putInt(y).array());
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static byte[] lengthOnly(int length) {
        return ByteBuffer.allocate(4).putInt(length).array();
    }

    /** An allocator whose metric shows how many bytes are allocated right now. */
    static UnpooledByteBufAllocator trackingAllocator() {
        return new UnpooledByteBufAllocator(false, false, false);
    }

    /**
     * Feeds {@code bytes} one at a time while the channel stays open.
     *
     * @return the largest amount of heap the allocator held at any step
     */
    static long feedOneByteAtATime(EmbeddedChannel ch, UnpooledByteBufAllocator alloc, byte[] bytes) {
        long peak = alloc.metric().usedHeapMemory();
        for (byte value : bytes) {
            if (!ch.isOpen()) {
                break;
            }
            ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {value}));
            peak = Math.max(peak, alloc.metric().usedHeapMemory());
        }
        return peak;
    }

    /** A response frame read from an embedded channel's outbound side, without its length prefix. */
    record Response(int callId, RpcStatus status, ByteBuf body) {
        static Response read(ByteBuf frame) {
            int length = frame.readInt();
            if (length != frame.readableBytes()) {
                throw new AssertionError("length prefix " + length + " but " + frame.readableBytes() + " bytes follow");
            }
            int callId = frame.readInt();
            RpcStatus status = RpcStatus.fromWireCode(frame.readByte());
            return new Response(callId, status, frame);
        }

        String text() {
            return body.toString(StandardCharsets.UTF_8);
        }
    }
}
