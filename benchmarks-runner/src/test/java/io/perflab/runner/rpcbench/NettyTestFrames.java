package io.perflab.runner.rpcbench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Builds raw frames of the bare-Netty stack and feeds them to embedded channels. */
final class NettyTestFrames {

    private NettyTestFrames() {
    }

    /** A frame: the body's length, then the body. */
    static byte[] frame(byte[] body) {
        return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }

    /** A frame whose body is {@code ints}, each a big-endian int32. */
    static byte[] frameOfInts(int... ints) {
        ByteBuffer body = ByteBuffer.allocate(4 * ints.length);
        for (int value : ints) {
            body.putInt(value);
        }
        return frame(body.array());
    }

    /** A length field alone, as a peer that claims a frame of {@code length} bytes starts it. */
    static byte[] lengthOnly(int length) {
        return ByteBuffer.allocate(4).putInt(length).array();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** An allocator whose metric shows how many heap bytes it holds right now. */
    static UnpooledByteBufAllocator trackingAllocator() {
        return new UnpooledByteBufAllocator(false, false, false);
    }

    /**
     * Feeds {@code bytes} to {@code channel} one at a time while it stays open.
     *
     * @return how many bytes were fed before the channel closed (all of them if it stayed open)
     */
    static int feedOneByteAtATime(EmbeddedChannel channel, byte[] bytes) {
        int fed = 0;
        while (fed < bytes.length && channel.isOpen()) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {bytes[fed++]}));
        }
        return fed;
    }

    /** The next message on the channel's inbound (or outbound) side as bytes, released; null if there is none. */
    static byte[] bytesOf(ByteBuf message) {
        if (message == null) {
            return null;
        }
        try {
            return ByteBufUtil.getBytes(message);
        } finally {
            message.release();
        }
    }

    /** Keeps the exceptions that reach the end of a pipeline, where an embedded channel would rethrow them. */
    static final class CaughtExceptions extends ChannelInboundHandlerAdapter {
        final List<Throwable> caught = new ArrayList<>();

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            caught.add(cause);
        }
    }
}
